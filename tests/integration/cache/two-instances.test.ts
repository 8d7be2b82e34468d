import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createCacheFixture, type CacheFixture } from './cache-fixture.ts';

/**
 * Two instances on one database and one Redis (CACHE_STORE=redis), reads and writes interleaved at random
 * (seeded: CACHE_SEED reproduces a run). The property: no request sent after a write was answered returns
 * what that write replaced, whichever instance served either.
 */
const SEED = Number(process.env.CACHE_SEED ?? Date.now() % 1_000_000);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let f: CacheFixture;
let second: SecondInstance;
beforeAll(async () => {
  f = await createCacheFixture({ CACHE_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' });
  second = await startSecondInstance(f.t);
});
afterAll(async () => {
  await second?.close();
  await f?.t.close();
});

type Article = { id: number; title: string; author: number };

describe(`two instances, redis store (CACHE_SEED=${SEED})`, () => {
  it('never answers a read sent after a committed write with the value it replaced', async () => {
    const next = random(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const instances = [f.t.request, second.request];
    const authors = new Map<number, string>(f.ids.authors.map((id, i) => [id, ['Ada', 'Brian'][i]!]));
    const articles = new Map<number, Article>([
      [f.ids.articles[0]!, { id: f.ids.articles[0]!, title: 'First', author: f.ids.authors[0]! }],
      [f.ids.articles[1]!, { id: f.ids.articles[1]!, title: 'Second', author: f.ids.authors[1]! }],
    ]);
    const who = [null, f.tokens.writer, f.tokens.writer2];
    const listPath = '/items/articles?fields=id,title,author.name&filter[status][_eq]=published&sort=id';
    const hits = { HIT: 0, MISS: 0 };
    let counter = 0;

    for (let step = 0; step < 240; step++) {
      const request = pick(instances);
      const roll = next();
      const context = `step ${step} (seed ${SEED})`;
      if (roll < 0.55) {
        const response = await request.get(listPath).set(f.as(pick(who)));
        expect(response.status, context).toBe(200);
        hits[response.headers['x-cache'] as 'HIT' | 'MISS']++;
        const expected = [...articles.values()].sort((a, b) => a.id - b.id).map((a) => ({ id: a.id, title: a.title, author: { name: authors.get(a.author) } }));
        expect(response.body.data, context).toEqual(expected);
      } else if (roll < 0.7) {
        const id = pick([...authors.keys()]);
        const response = await request.get(`/items/authors/${id}?fields=name,articles.id`).set(f.as(pick(who)));
        expect(response.status, context).toBe(200);
        expect(response.body.data.name, context).toBe(authors.get(id));
        const published = new Set([...articles.values()].filter((a) => a.author === id).map((a) => a.id));
        for (const { id: article } of response.body.data.articles as Array<{ id: number }>) if (!published.has(article)) expect(f.ids.articles[2], context).toBe(article);
        expect(response.body.data.articles.filter((a: { id: number }) => published.has(a.id)).length, context).toBe(published.size);
      } else if (roll < 0.82) {
        const article = pick([...articles.values()]);
        article.title = `title ${++counter}`;
        const response = await request.patch(`/items/articles/${article.id}`).set(f.as(f.admin)).send({ title: article.title });
        expect(response.status, context).toBe(200);
      } else if (roll < 0.9) {
        const id = pick([...authors.keys()]);
        authors.set(id, `author ${++counter}`);
        expect((await request.patch(`/items/authors/${id}`).set(f.as(f.admin)).send({ name: authors.get(id) })).status, context).toBe(200);
      } else if (roll < 0.96 || articles.size <= 2) {
        const author = pick([...authors.keys()]);
        const title = `new ${++counter}`;
        const response = await request.post('/items/articles').set(f.as(f.admin)).send({ title, status: 'published', author });
        expect(response.status, context).toBe(200);
        articles.set(response.body.data.id, { id: response.body.data.id, title, author });
      } else {
        const removable = [...articles.keys()].filter((id) => !f.ids.articles.includes(id));
        const id = pick(removable);
        expect((await request.delete(`/items/articles/${id}`).set(f.as(f.admin))).status, context).toBe(204);
        articles.delete(id);
      }
    }
    // The cache was in use, not bypassed.
    expect(hits.HIT).toBeGreaterThan(20);
    expect(hits.MISS).toBeGreaterThan(20);
  });

  it('keeps the property while reads run concurrently with the writes on both instances', async () => {
    const next = random(SEED + 1);
    const id = f.ids.articles[1]!;
    const path = `/items/articles/${id}?fields=title`;
    const instances = [f.t.request, second.request];
    let completed = 0;
    let writing = true;
    let reads = 0;
    const stale: string[] = [];

    const reader = async () => {
      while (writing) {
        const floor = completed;
        const response = await instances[Math.floor(next() * 2)]!.get(path);
        reads++;
        const seen = Number(/^v(\d+)$/.exec(response.body.data?.title ?? '')?.[1] ?? -1);
        if (floor > 0 && seen < floor) stale.push(`sent after v${floor} was answered, got ${response.body.data?.title} (${response.headers['x-cache']})`);
      }
    };
    const writer = async () => {
      for (let version = 1; version <= 40; version++) {
        const response = await instances[Math.floor(next() * 2)]!.patch(`/items/articles/${id}`).set(f.as(f.admin)).send({ title: `v${version}` });
        expect(response.status).toBe(200);
        completed = version;
      }
      writing = false;
    };
    await Promise.all([writer(), reader(), reader(), reader(), reader()]);
    expect(stale, `seed ${SEED}`).toEqual([]);
    expect(reads).toBeGreaterThan(40);
  });
});

describe('two instances, redis store: permission changes', () => {
  it('a permission change on one instance is never outlived by an answer cached on the other', async () => {
    const path = '/items/articles?fields=title&sort=id';
    const titles = async () => ((await second.request.get(path).set(f.as(f.tokens.writer))).body.data as Array<{ title: string }>).map((a) => a.title);
    await titles();
    expect((await second.request.get(path).set(f.as(f.tokens.writer))).headers['x-cache']).toBe('HIT');
    expect(await titles()).not.toContain('Hidden');
    const rule = await f.t.request.get(`/permissions?filter[role][_eq]=${f.ids.writerRole}&filter[collection][_eq]=articles&fields=id`).set(f.as(f.admin));
    await f.send('patch', `/permissions/${rule.body.data[0].id}`, { permissions: {} });
    // The other instance learns of new permissions through Redis (milliseconds); from then on, and for good,
    // its answers follow them: nothing it cached with the old permissions survives.
    await expect.poll(titles, { timeout: 5_000 }).toContain('Hidden');
    for (let i = 0; i < 5; i++) expect(await titles()).toContain('Hidden');
    await f.send('patch', `/permissions/${rule.body.data[0].id}`, { permissions: { status: { _eq: 'published' } } });
    await expect.poll(titles, { timeout: 5_000 }).not.toContain('Hidden');
    for (let i = 0; i < 5; i++) expect(await titles()).not.toContain('Hidden');
  });
});

describe('two instances, memory store with purges through Redis', () => {
  it('a write on one instance purges the other instance’s memory cache', async () => {
    const first = await createCacheFixture({ CACHE_STORE: 'memory', REDIS_URL: 'redis://127.0.0.1:6379' });
    const other = await startSecondInstance(first.t);
    try {
      const path = '/items/authors?fields=name&sort=id';
      // Each instance hears purges once subscribed; until then it does not use its cache.
      await expect.poll(async () => (await other.request.get(path)).headers['x-cache'], { timeout: 10_000 }).toBe('HIT');
      await first.send('patch', `/items/authors/${first.ids.authors[0]}`, { name: 'Purged elsewhere' });
      await expect.poll(async () => (await other.request.get(path)).body.data[0].name, { timeout: 5_000 }).toBe('Purged elsewhere');
    } finally {
      await other.close();
      await first.t.close();
    }
  });
});
