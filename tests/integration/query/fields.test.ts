import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { ReadResult } from '../../../server/query/types.ts';
import { FIXTURE_IDS, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

function read(query: string, collection = 'articles'): Promise<ReadResult> {
  return readByQuery(fixture.db, fixture.schema, collection, parseQuery(query), { accountability: null });
}

async function first(query: string): Promise<Record<string, unknown>> {
  const { data } = await read(`${query}&filter[id][_eq]=1`);
  return data[0] as Record<string, unknown>;
}

describe('fields on one table', () => {
  it('returns every field in API form for *', async () => {
    expect(await first('fields=*')).toEqual({
      id: 1,
      title: 'Hello World',
      body: 'First body',
      status: 'published',
      rating: 5,
      price: '10.50',
      views: '9007199254740993',
      score: 4.5,
      published_on: '2024-01-15',
      published_at: '2024-01-15T10:30:00.000Z',
      local_at: '2024-01-15T10:30:00',
      reminder: '09:15:00',
      meta: { a: 1, list: ['x'] },
      keywords: ['red', 'green'],
      secret: '**********',
      uid: FIXTURE_IDS.articleUid,
      author: 1,
      comments: [1, 2, 3],
      tags: [1, 2, 5],
      blocks: [1, 2, 3],
    });
  });

  it('keeps nulls null (also concealed ones) and empty csv as an empty list', async () => {
    const { data } = await read('fields=id,secret,keywords,meta,author&filter[id][_in]=3,5&sort=id');
    expect(data).toEqual([
      { id: 3, secret: '**********', keywords: [], meta: [], author: 1 },
      { id: 5, secret: null, keywords: null, meta: null, author: null },
    ]);
  });

  it('returns only the fields asked for, in that order, with functions keyed like Directus', async () => {
    const item = await first('fields=title,id,year(published_on),month(published_on),count(comments),hour(local_at)');
    expect(Object.keys(item)).toEqual(['title', 'id', 'published_on_year', 'published_on_month', 'comments_count', 'local_at_hour']);
    expect(item).toMatchObject({ published_on_year: 2024, published_on_month: 1, comments_count: 3, local_at_hour: 10 });
  });

  it('leaves out fields without data (groups)', async () => {
    expect(await first('fields=id,layout')).toEqual({ id: 1 });
  });
});

describe('relations in fields', () => {
  it('reads an m2o as an object, or null without an item', async () => {
    const { data } = await read('fields=id,author.name,author.born&filter[id][_in]=1,5&sort=id');
    expect(data).toEqual([
      { id: 1, author: { name: 'Ada Lovelace', born: '1815-12-10' } },
      { id: 5, author: null },
    ]);
  });

  it('reads an o2m as an array of objects, or of keys without sub-fields', async () => {
    expect(await first('fields=comments.body,comments.approved')).toEqual({
      comments: [
        { body: 'Great post', approved: true },
        { body: 'SECRET spam', approved: false },
        { body: 'Thanks', approved: true },
      ],
    });
    const { data } = await read('fields=id,comments&filter[id][_in]=2,3&sort=id');
    expect(data).toEqual([
      { id: 2, comments: [4] },
      { id: 3, comments: [] },
    ]);
  });

  it('reads an m2m through its junction', async () => {
    expect(await first('fields=tags.id,tags.tags_id.name')).toEqual({
      tags: [
        { id: 1, tags_id: { name: 'news' } },
        { id: 2, tags_id: { name: 'tech' } },
        { id: 5, tags_id: { name: 'secret-tag' } },
      ],
    });
  });

  it('reads an m2a per collection scope, the junction sort field ordering it', async () => {
    expect(await first('fields=blocks.collection,blocks.item:block_text.text,blocks.item:block_image.url')).toEqual({
      blocks: [
        { collection: 'block_text', item: { text: 'Intro text' } },
        { collection: 'block_image', item: { url: 'a.png' } },
        { collection: 'block_text', item: { text: 'SECRET block' } },
      ],
    });
    expect(await first('fields=blocks.item:block_image.alt')).toEqual({
      blocks: [{ item: '1' }, { item: { alt: 'A picture' } }, { item: '2' }],
    });
    expect(await first('fields=blocks.item.*')).toEqual({
      blocks: [{ item: { id: 1, text: 'Intro text' } }, { item: { id: 1, url: 'a.png', alt: 'A picture' } }, { item: { id: 2, text: 'SECRET block' } }],
    });
  });

  it('applies an unscoped m2a path to every allowed collection that has the field, as Directus does (issue 31)', async () => {
    expect(await first('fields=blocks.item.id,blocks.item.text')).toEqual({
      blocks: [{ item: { id: 1, text: 'Intro text' } }, { item: { id: 1 } }, { item: { id: 2, text: 'SECRET block' } }],
    });
  });

  it('expands relations one level per *, and nests paths through several relations', async () => {
    const item = await first('fields=*.*');
    expect(item.author).toEqual({ id: 1, name: 'Ada Lovelace', active: true, born: '1815-12-10', owner: FIXTURE_IDS.ada, articles: [1, 3] });
    expect(item.tags).toEqual([
      { id: 1, articles_id: 1, tags_id: 1 },
      { id: 2, articles_id: 1, tags_id: 2 },
      { id: 5, articles_id: 1, tags_id: 3 },
    ]);
    const nested = await first('fields=author.articles.title,author.owner.email,comments.article.author.name');
    expect(nested).toEqual({
      author: { articles: [{ title: 'Hello World' }, { title: 'Draft idea' }], owner: { email: 'ada@example.com' } },
      comments: Array(3).fill({ article: { author: { name: 'Ada Lovelace' } } }),
    });
  });

  it('reads from the other collections the same way', async () => {
    const { data } = await read('fields=name,articles.title&sort=-name&filter[active][_eq]=true', 'authors');
    expect(data).toEqual([
      { name: 'Brian Kernighan', articles: [{ title: 'Second Post' }] },
      { name: 'Ada Lovelace', articles: [{ title: 'Hello World' }, { title: 'Draft idea' }] },
    ]);
  });
});

describe('deep', () => {
  it('filters, sorts, limits and pages each parent’s related items', async () => {
    expect(await first('fields=comments.id&deep[comments][_filter][approved][_eq]=true')).toEqual({ comments: [{ id: 1 }, { id: 3 }] });
    expect(await first('fields=comments.id&deep[comments][_sort]=-id')).toEqual({ comments: [{ id: 3 }, { id: 2 }, { id: 1 }] });
    expect(await first('fields=comments.id&deep[comments][_limit]=2&deep[comments][_offset]=1')).toEqual({ comments: [{ id: 2 }, { id: 3 }] });
    expect(await first('fields=comments&deep[comments][_limit]=1&deep[comments][_page]=3')).toEqual({ comments: [3] });
    expect(await first('fields=comments.body&deep[comments][_search]=thanks')).toEqual({ comments: [{ body: 'Thanks' }] });
    expect(await first('fields=comments.id&deep[comments][_sort]=article.title,-body')).toEqual({ comments: [{ id: 3 }, { id: 2 }, { id: 1 }] });
  });

  it('nests through relations, and applies _filter to single items', async () => {
    const item = await first('fields=tags.tags_id.name,author.name&deep[tags][tags_id][_filter][name][_neq]=tech&deep[author][_filter][active][_eq]=false');
    expect(item).toEqual({ tags: [{ tags_id: { name: 'news' } }, { tags_id: null }, { tags_id: { name: 'secret-tag' } }], author: null });
    const blocks = await first('fields=blocks.item:block_text.text&deep[blocks][item:block_text][_filter][text][_contains]=Intro');
    expect(blocks).toEqual({ blocks: [{ item: { text: 'Intro text' } }, { item: '1' }, { item: null }] });
  });

  it('returns QUERY_LIMIT_DEFAULT related items per parent unless _limit says otherwise', async () => {
    await sql`insert into comments (article, body, approved) select 5, 'bulk ' || n, true from generate_series(1, 105) as n`.execute(fixture.db);
    try {
      const limited = await read('fields=comments&filter[id][_eq]=5');
      expect(limited.data[0]?.comments).toHaveLength(100);
      const all = await read('fields=comments&filter[id][_eq]=5&deep[comments][_limit]=-1');
      expect(all.data[0]?.comments).toHaveLength(105);
      const capped = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery('fields=comments&filter[id][_eq]=5&deep[comments][_limit]=-1'), {
        accountability: null,
        maxLimit: 30,
      });
      expect(capped.data[0]?.comments).toHaveLength(30);
    } finally {
      await sql`delete from comments where article = 5`.execute(fixture.db);
    }
  });
});

describe('alias', () => {
  it('names a field twice, each with its own deep options', async () => {
    const item = await first('alias[headline]=title&alias[approved]=comments&fields=id,headline,comments.id,approved.id&deep[approved][_filter][approved][_eq]=true');
    expect(item).toEqual({ id: 1, headline: 'Hello World', comments: [{ id: 1 }, { id: 2 }, { id: 3 }], approved: [{ id: 1 }, { id: 3 }] });
  });

  it('builds objects with more keys than one json_build_object call takes', async () => {
    const names = Array.from({ length: 60 }, (_, index) => `t${index}`);
    const item = await first(`${names.map((name) => `alias[${name}]=title`).join('&')}&fields=${names.join(',')}`);
    expect(Object.keys(item)).toHaveLength(60);
    expect(new Set(Object.values(item))).toEqual(new Set(['Hello World']));
  });
});

describe('statements per read', () => {
  it('reads m2o, o2m, m2m and m2a with deep options in one statement, and with counts too', async () => {
    fixture.statements.length = 0;
    const query =
      'fields=*,author.name,comments.body,tags.tags_id.name,blocks.item:block_text.text' +
      '&deep[comments][_filter][approved][_eq]=true&deep[comments][_limit]=5&deep[tags][_sort]=-id';
    const plain = await read(query);
    expect(plain.data).toHaveLength(5);
    expect(fixture.statements).toHaveLength(1);
    fixture.statements.length = 0;
    const counted = await read(`${query}&meta=*&limit=2`);
    expect(counted.meta).toEqual({ total_count: 5, filter_count: 5 });
    expect(fixture.statements).toHaveLength(1);
  });

  it('needs a second statement only for the counts of an empty page', async () => {
    fixture.statements.length = 0;
    const empty = await read('fields=id&meta=*&offset=50');
    expect(empty).toEqual({ data: [], meta: { total_count: 5, filter_count: 5 } });
    expect(fixture.statements).toHaveLength(2);
  });
});
