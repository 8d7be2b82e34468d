import { sql } from 'kysely';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeakFixture, leakedMarkers, MARKERS, type LeakFixture } from './leak-fixture.ts';

/**
 * SQL injection through identifiers (collection names, field names in fields, filter, sort, groupBy,
 * aggregate, alias and deep, JSON keys of payloads) and values (filter values, search, payload values,
 * keys). Every attempt is a clean 400 or 403, or a normal answer that treats the input as data; never a
 * 500, and the tables are intact afterwards.
 */
type Who = 'admin' | 'editor' | 'public';

const DROP = 'drop table vault';
const IDENTIFIERS = [
  `id"; ${DROP}; --`,
  `id) from vault; --`,
  `title" from vault --`,
  `"secret_note"`,
  `secret_note--`,
  `id::text`,
  `title as "x"`,
  `(select code from vault)`,
  `id, (select code from vault limit 1) as code`,
  `pg_sleep(1)`,
  `year(title)); ${DROP}; --`,
  `count(comments); ${DROP}`,
  `author.name"; ${DROP}; --`,
  `comments.body' or '1'='1`,
  `item:block_text"; ${DROP}`,
  `$CURRENT_USER`,
  `title\\`,
  `title\u0000`,
];

const VALUES = [`' or '1'='1`, `1; ${DROP}`, `1 or 1=1`, `'); ${DROP}; --`, `%' or 1=1 --`, `\\'; ${DROP}; --`, `$$; ${DROP}; $$`, `E'\\x27'`, `*/ ${DROP} /*`];

let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
});
afterAll(() => f?.t.close());

const enc = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

async function send(who: Who, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown): Promise<Response> {
  const token = who === 'public' ? null : f.tokens[who];
  let request = f.t.request[method](path).set(f.as(token));
  if (body !== undefined) request = request.send(body as object);
  return request;
}

/** A clean refusal: 400 or 403 with one of the documented codes, nothing hidden in it. */
function expectRefused(response: Response, context: string): void {
  expect([400, 403], `${context} → ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
  expect(['INVALID_QUERY', 'INVALID_PAYLOAD', 'FORBIDDEN'], context).toContain(response.body.errors?.[0]?.extensions?.code);
  expect(leakedMarkers(response.body)).toEqual([]);
}

async function expectTablesIntact(): Promise<void> {
  const db = f.t.system.db;
  const count = async (table: string) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  expect(await count('vault')).toBe(1);
  expect(await count('articles')).toBeGreaterThanOrEqual(6);
  expect(await count('authors')).toBe(2);
  expect(await count('comments')).toBe(3);
  expect(await count('tessera_users')).toBe(4);
  expect(await count('tessera_permissions')).toBe(10);
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_tables where schemaname = 'public' and tablename in ('vault', 'articles', 'authors', 'tessera_users', 'tessera_permissions')`.execute(db);
  expect(Number(rows[0]!.n)).toBe(5);
  const admin = await db.selectFrom('tessera_roles').select('admin_access').where('id', '=', f.ids.editorRole).executeTakeFirstOrThrow();
  expect(admin.admin_access).toBe(false);
}

describe('injection through identifiers', () => {
  const collections = [`articles"; ${DROP}; --`, 'articles;drop table vault', '"articles"', 'public.articles', 'pg_catalog.pg_tables', 'information_schema.tables', 'tessera_users', 'ARTICLES', 'articles ', '..', 'vault--'];
  for (const who of ['editor', 'public', 'admin'] as const) {
    it(`${who}: collection names in the path are refused`, async () => {
      for (const collection of collections) {
        const response = await send(who, 'get', `/items/${encodeURIComponent(collection)}`);
        // Every name, `..` included, reaches the items route and is refused there: a 404 would mean it went elsewhere.
        expectRefused(response, collection);
      }
      for (const collection of collections) expectRefused(await send(who, 'post', `/items/${encodeURIComponent(collection)}`, { code: 'x' }), `POST ${collection}`);
      await expectTablesIntact();
    });
  }

  const uses: Array<[string, (id: string) => string]> = [
    ['fields', (id) => `fields=${enc(id)}`],
    ['nested fields', (id) => `fields=${enc(`author.${id}`)}`],
    ['filter key', (id) => `filter=${enc({ [id]: { _eq: 1 } })}`],
    ['nested filter key', (id) => `filter=${enc({ author: { [id]: { _eq: 'x' } } })}`],
    ['filter operator', (id) => `filter=${enc({ title: { [`_eq${id}`]: 'x' } })}`],
    ['_some filter key', (id) => `filter=${enc({ comments: { _some: { [id]: { _eq: 'x' } } } })}`],
    ['sort', (id) => `sort=${enc(id)}`],
    ['sort desc', (id) => `sort=${enc(`-${id}`)}`],
    ['groupBy', (id) => `aggregate=${enc({ count: '*' })}&groupBy=${enc(id)}`],
    ['aggregate field', (id) => `aggregate=${enc({ count: id })}`],
    ['aggregate function', (id) => `aggregate=${enc({ [id]: 'id' })}`],
    ['alias name', (id) => `alias=${enc({ [id]: 'title' })}&fields=${enc(`id,${id}`)}`],
    ['alias target', (id) => `alias=${enc({ x: id })}&fields=x`],
    ['deep relation', (id) => `deep=${enc({ [id]: { _limit: 1 } })}`],
    ['deep _filter key', (id) => `fields=comments.body&deep=${enc({ comments: { _filter: { [id]: { _eq: 'x' } } } })}`],
    ['deep _sort', (id) => `fields=comments.body&deep=${enc({ comments: { _sort: [id] } })}`],
    ['meta', (id) => `meta=${enc(id)}`],
  ];
  for (const who of ['editor', 'admin'] as const) {
    for (const [use, build] of uses) {
      it(`${who}: identifiers as ${use} are refused`, async () => {
        for (const identifier of IDENTIFIERS) {
          const path = `/items/articles?${build(identifier)}`;
          const response = await send(who, 'get', path);
          if (response.status === 200) {
            // Only an alias name may be any text: it is a key of the answer, never SQL.
            expect(use, `${decodeURIComponent(path)} → 200 ${JSON.stringify(response.body)}`).toBe('alias name');
            for (const item of response.body.data) expect(Object.keys(item)).toEqual(['id', identifier]);
          } else expectRefused(response, decodeURIComponent(path));
        }
        await expectTablesIntact();
      });
    }
  }

  it('editor: payload keys are refused, nothing written', async () => {
    for (const identifier of IDENTIFIERS) {
      expectRefused(await send('editor', 'post', '/items/articles', { title: 'x', [identifier]: 'y' }), `POST key ${identifier}`);
      expectRefused(await send('editor', 'patch', '/items/articles/3', { [identifier]: 'y' }), `PATCH key ${identifier}`);
      expectRefused(await send('editor', 'post', '/items/articles', { title: 'x', author: { [identifier]: 'y' } }), `nested key ${identifier}`);
    }
    await expectTablesIntact();
    expect(Number((await f.t.system.db.selectFrom('articles').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)).toBe(6);
  });

  it('admin: payload keys are refused, nothing written', async () => {
    for (const identifier of IDENTIFIERS) {
      expectRefused(await send('admin', 'post', '/items/vault', { code: 'x', [identifier]: 'y' }), `POST key ${identifier}`);
      expectRefused(await send('admin', 'patch', '/items/vault/1', { [identifier]: 'y' }), `PATCH key ${identifier}`);
    }
    await expectTablesIntact();
    const vault = await f.t.system.db.selectFrom('vault').select('code').execute();
    expect(vault).toEqual([{ code: MARKERS.vault }]);
  });

  it('field and collection names through the schema endpoints are refused', async () => {
    for (const identifier of IDENTIFIERS) {
      for (const path of [`/fields/articles/${encodeURIComponent(identifier)}`, `/fields/${encodeURIComponent(identifier)}`, `/collections/${encodeURIComponent(identifier)}`]) {
        const response = await send('editor', 'get', path);
        expect([403, 404], `${path} → ${response.status}`).toContain(response.status);
      }
    }
    await expectTablesIntact();
  });
});

describe('injection through values', () => {
  it('filter values are data: they match nothing and break nothing', async () => {
    for (const who of ['editor', 'admin', 'public'] as const) {
      for (const value of VALUES) {
        for (const filter of [{ title: { _eq: value } }, { title: { _contains: value } }, { title: { _in: [value, 'x'] } }, { title: { _starts_with: value } }, { title: { _nnull: true }, id: { _neq: 999 }, _and: [{ title: { _neq: value } }, { title: { _eq: value } }] }]) {
          const path = `/items/articles?fields=id&filter=${enc(filter)}`;
          const response = await send(who, 'get', path);
          expect(response.status, `${who} ${decodeURIComponent(path)} → ${JSON.stringify(response.body)}`).toBe(200);
          expect(response.body.data).toEqual([]);
        }
      }
    }
    await expectTablesIntact();
  });

  it('values for typed fields are 400s, not SQL', async () => {
    for (const value of VALUES) {
      for (const filter of [{ rating: { _eq: value } }, { id: { _in: value } }, { owner: { _eq: value } }, { rating: { _between: [value, 1] } }]) {
        const response = await send('editor', 'get', `/items/articles?fields=id&filter=${enc(filter)}`);
        expect(response.status, JSON.stringify(filter)).toBe(400);
        expect(response.body.errors[0].extensions.code).toBe('INVALID_QUERY');
      }
    }
    await expectTablesIntact();
  });

  it('_regex values are data', async () => {
    for (const value of ["'; drop table vault; --", '.*', '(?i)pub']) {
      const response = await send('editor', 'get', `/items/articles?fields=id&filter=${enc({ title: { _regex: value } })}`);
      if (response.status === 200) expect(response.body.data.map((item: { id: number }) => item.id)).toEqual(value === '.*' ? [1, 2, 3, 6] : []);
      else expectRefused(response, value);
    }
    await expectTablesIntact();
  });

  it('search terms are data', async () => {
    for (const who of ['editor', 'admin', 'public'] as const) {
      for (const value of VALUES) {
        const response = await send(who, 'get', `/items/articles?fields=id&search=${enc(value)}`);
        expect(response.status, `${who} search ${value}`).toBe(200);
        expect(response.body.data).toEqual([]);
      }
    }
    const nul = await send('editor', 'get', `/items/articles?fields=id&search=${enc('x\u0000y')}`);
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0].extensions.code).toBe('INVALID_QUERY');
    await expectTablesIntact();
  });

  it('dynamic values cannot be bent into SQL or into other users', async () => {
    for (const value of ["$CURRENT_USER' or '1'='1", '$CURRENT_USER.id; drop table vault', '$CURRENT_USER.role.admin_access', '$CURRENT_ROLE.name"--', '$NOW(1 day; drop table vault)', "$NOW(-1 day') or 1=1 --"]) {
      const response = await send('editor', 'get', `/items/articles?fields=id&filter=${enc({ owner: { _eq: value } })}`);
      if (response.status === 200) expect(response.body.data).toEqual([]);
      else expectRefused(response, value);
    }
    await expectTablesIntact();
  });

  it('keys in paths and batches are refused', async () => {
    for (const key of ['1 or 1=1', `1; ${DROP}`, "1' or '1'='1", '1)', '-1 union select 1', '1e3', '0x1']) {
      expectRefused(await send('editor', 'get', `/items/articles/${encodeURIComponent(key)}`), `GET ${key}`);
      expectRefused(await send('editor', 'patch', `/items/articles/${encodeURIComponent(key)}`, { title: 'x' }), `PATCH ${key}`);
      expectRefused(await send('editor', 'delete', `/items/articles/${encodeURIComponent(key)}`), `DELETE ${key}`);
      expectRefused(await send('editor', 'delete', '/items/articles', [key]), `batch DELETE ${key}`);
      expectRefused(await send('editor', 'patch', '/items/articles', { keys: [3, key], data: { rating: 9 } }), `batch PATCH ${key}`);
      expectRefused(await send('admin', 'get', `/items/articles/${encodeURIComponent(key)}`), `admin GET ${key}`);
      expectRefused(await send('admin', 'get', `/users/${encodeURIComponent(key)}`), `admin GET user ${key}`);
    }
    await expectTablesIntact();
    expect((await f.t.system.db.selectFrom('articles').select('rating').where('id', '=', 3).executeTakeFirstOrThrow()).rating).toBe(1);
  });

  it('payload values are stored as data', async () => {
    const created: number[] = [];
    for (const value of VALUES) {
      const response = await send('editor', 'post', '/items/articles?fields=id,title', { title: value });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.title).toBe(value);
      created.push(response.body.data.id);
    }
    const stored = await f.t.system.db.selectFrom('articles').select(['id', 'title', 'owner', 'status']).where('id', 'in', created).orderBy('id').execute();
    expect(stored.map((item) => item.title)).toEqual(VALUES);
    expect(new Set(stored.map((item) => `${item.owner}:${item.status}`))).toEqual(new Set([`${f.ids.editor}:draft`]));
    const patched = await send('editor', 'patch', `/items/articles/${created[0]}?fields=title`, { title: `x'); update articles set status = 'published'; --` });
    expect(patched.body.data).toEqual({ title: `x'); update articles set status = 'published'; --` });
    expect((await f.t.system.db.selectFrom('articles').select('status').where('status', '=', 'published').execute()).length).toBe(2);
    await expectTablesIntact();
  });

  it('typed payload values are 400s', async () => {
    for (const value of VALUES) {
      const response = await send('editor', 'post', '/items/articles', { title: 'typed', rating: value });
      expect(response.status, `${value} → ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'rating' });
    }
    expect(await f.t.system.db.selectFrom('articles').select('id').where('title', '=', 'typed').execute()).toEqual([]);
    await expectTablesIntact();
  });

  it('update and delete by query with injected values reach nothing', async () => {
    for (const value of VALUES) {
      const update = await send('editor', 'patch', '/items/articles', { query: { filter: { title: { _eq: value + 'nope' } } }, data: { rating: 9 } });
      expect(update.status, JSON.stringify(update.body)).toBe(200);
      expect(update.body.data).toEqual([]);
      const remove = await send('editor', 'delete', '/items/articles', { query: { filter: { title: { _eq: value + 'nope' } }, search: value } });
      expect(remove.status).toBe(204);
    }
    expect(await f.t.system.db.selectFrom('articles').select('id').where('rating', '=', 9).execute()).toEqual([]);
    await expectTablesIntact();
  });
});

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  it('in payload values are a 400 naming the field, nothing written', async () => {
    const before = await f.t.system.db.selectFrom('articles').select('id').execute();
    for (const [who, path, method, body, field] of [
      ['admin', '/items/articles', 'post', { title: 'a\u0000b' }, 'title'],
      ['editor', '/items/articles', 'post', { title: 'a\u0000b' }, 'title'],
      ['admin', '/items/articles', 'post', { title: 'ok', secret_note: '\u0000' }, 'secret_note'],
      ['admin', '/items/articles/1', 'patch', { title: 'x\u0000' }, 'title'],
      ['editor', '/items/articles/3', 'patch', { title: 'x\u0000' }, 'title'],
    ] as const) {
      const response = await send(who, method, path, body);
      expect(response.status, `${who} ${method} ${path} → ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    expect(await f.t.system.db.selectFrom('articles').select('id').execute()).toEqual(before);
    const titles = await f.t.system.db.selectFrom('articles').select('title').where('id', 'in', [1, 3]).orderBy('id').execute();
    expect(titles).toEqual([{ title: 'Pub One' }, { title: 'Ed Draft' }]);
  });

  it('a literal backslash-u text is ordinary data', async () => {
    const response = await send('editor', 'post', '/items/articles?fields=title', { title: '\\u0000 literally' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({ title: '\\u0000 literally' });
  });

  it('in filter values, search and alias names are a 400', async () => {
    for (const query of [
      `filter=${enc({ title: { _eq: 'a\u0000' } })}`,
      `filter=${enc({ title: { _contains: '\u0000' } })}`,
      `filter=${enc({ title: { _in: ['x', '\u0000'] } })}`,
      `filter=${enc({ title: { _regex: '\u0000' } })}`,
      `search=${enc('\u0000')}`,
      `fields=comments.body&deep=${enc({ comments: { _search: '\u0000' } })}`,
      `alias=${enc({ 'x\u0000': 'title' })}&fields=${enc('x\u0000')}`,
    ]) {
      const response = await send('editor', 'get', `/items/articles?${query}`);
      expect(response.status, `${decodeURIComponent(query)} → ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.errors[0].extensions.code).toBe('INVALID_QUERY');
    }
  });
});
