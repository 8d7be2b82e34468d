/**
 * Drives Tessera end to end with the public Directus REST client (`@directus/sdk` 26) over real HTTP: sign-in,
 * schema (collections, fields, m2o/o2m/m2m relations), item writes and reads with the query language, and
 * errors as the SDK surfaces them. Every request the SDK makes goes through a recording fetch, so the wire
 * format (what the SDK sent, what Tessera answered) can be asserted where the SDK itself hides it (`meta`).
 *
 * This file signs in with `authentication('json')`; the SDK's cookie and session modes are driven in
 * tests/integration/auth/sessions-sdk.test.ts.
 */
import {
  aggregate,
  authentication,
  clearCache,
  createCollection,
  createDirectus,
  createField,
  createItem,
  createItems,
  createRelation,
  deleteCollection,
  deleteField,
  deleteItem,
  deleteItems,
  type DirectusError,
  isDirectusError,
  readCollection,
  readField,
  readFieldsByCollection,
  readItem,
  readItems,
  readMe,
  readRelation,
  readRelationByCollection,
  rest,
  type RestClient,
  schemaApply,
  schemaDiff,
  schemaSnapshot,
  serverHealth,
  serverInfo,
  serverPing,
  staticToken,
  updateCollection,
  updateCollectionsBatch,
  updateField,
  updateFields,
  updateItem,
  updateItems,
  updateRelation,
  withSearch,
} from '@directus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

interface Author {
  id: number;
  name: string;
  country: string | null;
  email: string | null;
  books: number[] | Book[];
}
interface Book {
  id: number;
  title: string;
  pages: number | null;
  rating: number | null;
  author: number | Author | null;
  tags: number[] | BookTag[];
}
interface Tag {
  id: number;
  label: string;
}
interface BookTag {
  id: number;
  books_id: number | Book | null;
  tags_id: number | Tag | null;
}
interface Schema {
  authors: Author[];
  books: Book[];
  tags: Tag[];
  books_tags: BookTag[];
}

/** One HTTP exchange as the SDK made it. */
interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  response: unknown;
}

function parseMaybeJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A fetch that records each request and its answer, then hands the untouched response to the SDK. */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? parseMaybeJson(init.body) : (init?.body ?? null);
    log.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body,
      status: response.status,
      response: parseMaybeJson(await response.clone().text()),
    });
    return response;
  };
}

/** Runs a request expected to fail and returns the SDK's error, which must be a DirectusError. */
async function failure(promise: Promise<unknown>): Promise<DirectusError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) throw new Error('Expected the request to fail, but it succeeded.');
  if (!isDirectusError(caught)) throw caught;
  return caught;
}

/** The first error of a DirectusError as `{ status, code, field?, message }`, for exact comparison. */
function summary(error: DirectusError): { status: number; code: string; field?: string; message: string } {
  const [first] = error.errors;
  const result: { status: number; code: string; field?: string; message: string } = {
    status: error.response.status,
    code: first!.extensions.code,
    message: first!.message,
  };
  if (first!.extensions.field !== undefined) result.field = first!.extensions.field;
  return result;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('@directus/sdk 26 against Tessera over HTTP', () => {
  let t: TestApp;
  let server: Listening;
  const log: Exchange[] = [];
  const makeClient = (url: string) => createDirectus<Schema>(url, { globals: { fetch: recordingFetch(log) } }).with(rest()).with(authentication('json'));
  let client: ReturnType<typeof makeClient>;
  const last = (): Exchange => log.at(-1)!;
  /** The same client without the schema types, which (like Directus' own docs) take dot paths as plain strings. */
  const loose = () => client as unknown as RestClient<any>;

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    client = makeClient(server.url);
  });
  afterAll(async () => {
    client?.stopRefreshing();
    await server?.close();
    await t?.close();
  });

  describe('authentication', () => {
    it('signs in with authentication("json") and sends the access token as a Bearer header', async () => {
      const result = await client.login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
      expect(last()).toMatchObject({ method: 'POST', status: 200, body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password, mode: 'json' } });
      expect(last().url.pathname).toBe('/auth/login');
      expect(result).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires: 900_000, expires_at: expect.any(Number) });
      expect(await client.getToken()).toBe(result.access_token);

      const me = await client.request(readMe());
      expect(me).toMatchObject({ email: TEST_ADMIN.email, status: 'active' });
      expect(last().headers.Authorization).toBe(`Bearer ${result.access_token}`);
    });

    it('surfaces wrong credentials as a DirectusError and keeps no token', async () => {
      const other = createDirectus<Schema>(server.url).with(rest()).with(authentication('json', { autoRefresh: false }));
      expect(summary(await failure(other.login({ email: TEST_ADMIN.email, password: 'wrong-password' })))).toEqual({
        status: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid user credentials.',
      });
      expect(await other.getToken()).toBeNull();
    });
  });

  describe('schema', () => {
    it('creates collections with their fields, the way the Directus app sends them', async () => {
      const authors = await client.request(
        createCollection({
          collection: 'authors',
          meta: { icon: 'person', note: 'People who write' },
          schema: {},
          fields: [
            { field: 'id', type: 'integer', meta: { hidden: true, interface: 'input', readonly: true }, schema: { is_primary_key: true, has_auto_increment: true } },
            { field: 'name', type: 'string', meta: { interface: 'input', required: true }, schema: { is_nullable: false } },
            { field: 'country', type: 'string', schema: { max_length: 2 } },
          ],
        }),
      );
      expect(authors).toMatchObject({ collection: 'authors', meta: { collection: 'authors', icon: 'person', note: 'People who write', hidden: false, singleton: false }, schema: { name: 'authors' } });
      expect(last()).toMatchObject({ method: 'POST', status: 200 });
      expect(last().url.pathname).toBe('/collections');

      await client.request(
        createCollection({
          collection: 'books',
          meta: { singleton: false },
          schema: {},
          fields: [
            { field: 'id', type: 'integer', meta: { hidden: true, interface: 'input', readonly: true }, schema: { is_primary_key: true, has_auto_increment: true } },
            { field: 'title', type: 'string', meta: { interface: 'input', required: true } },
            { field: 'pages', type: 'integer' },
          ],
        }),
      );
      // Without an explicit key field, Tessera adds an integer `id`.
      await client.request(createCollection({ collection: 'tags', meta: {}, schema: {}, fields: [{ field: 'label', type: 'string' }] }));
      await client.request(
        createCollection({
          collection: 'books_tags',
          meta: { hidden: true, icon: 'import_export' },
          schema: {},
          fields: [
            { field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true, has_auto_increment: true } },
            { field: 'books_id', type: 'integer', meta: { hidden: true }, schema: {} },
            { field: 'tags_id', type: 'integer', meta: { hidden: true }, schema: {} },
          ],
        }),
      );
      expect(await client.request(readCollection('books_tags'))).toMatchObject({ collection: 'books_tags', meta: { hidden: true, icon: 'import_export' }, schema: { name: 'books_tags' } });
      expect((await client.request(readFieldsByCollection('tags'))).map((field) => field.field)).toEqual(['id', 'label']);
    });

    it('adds fields with createField', async () => {
      const rating = await client.request(createField('books', { field: 'rating', type: 'integer', meta: { interface: 'input', width: 'half' }, schema: { default_value: 3 } }));
      expect(rating).toMatchObject({
        collection: 'books',
        field: 'rating',
        type: 'integer',
        meta: { collection: 'books', field: 'rating', interface: 'input', width: 'half', special: null },
        schema: { name: 'rating', table: 'books', data_type: 'integer', default_value: 3, is_nullable: true, is_primary_key: false },
      });
      expect(last().url.pathname).toBe('/fields/books');

      const author = await client.request(createField('books', { field: 'author', type: 'integer', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] }, schema: {} }));
      expect(author).toMatchObject({ field: 'author', type: 'integer', meta: { special: ['m2o'], interface: 'select-dropdown-m2o' }, schema: { data_type: 'integer' } });
      const email = await client.request(createField('authors', { field: 'email', type: 'string', schema: { is_unique: true } }));
      expect(email.schema).toMatchObject({ is_unique: true, max_length: 255 });
    });

    it('creates an m2o with its o2m alias: the alias field first, then the relation naming it (Directus order)', async () => {
      const alias = await client.request(createField('authors', { field: 'books', type: 'alias', meta: { special: ['o2m'], interface: 'list-o2m' } }));
      expect(alias).toMatchObject({ collection: 'authors', field: 'books', type: 'alias', schema: null, meta: { special: ['o2m'], interface: 'list-o2m' } });

      const relation = await client.request(
        createRelation({
          collection: 'books',
          field: 'author',
          related_collection: 'authors',
          meta: { one_field: 'books', sort_field: null, one_deselect_action: 'nullify' },
          schema: { on_delete: 'SET NULL' },
        }),
      );
      expect(relation).toEqual({
        collection: 'books',
        field: 'author',
        related_collection: 'authors',
        meta: {
          id: expect.any(Number),
          many_collection: 'books',
          many_field: 'author',
          one_collection: 'authors',
          one_field: 'books',
          one_collection_field: null,
          one_allowed_collections: null,
          junction_field: null,
          sort_field: null,
          one_deselect_action: 'nullify',
        },
        schema: {
          table: 'books',
          column: 'author',
          foreign_key_table: 'authors',
          foreign_key_column: 'id',
          constraint_name: 'books_author_fkey',
          on_update: 'NO ACTION',
          on_delete: 'SET NULL',
        },
      });
      expect(last()).toMatchObject({ method: 'POST', status: 200 });
      expect(last().url.pathname).toBe('/relations');
      expect(await client.request(readRelation('books', 'author'))).toEqual(relation);
      expect(await client.request(readField('books', 'author'))).toMatchObject({ schema: { foreign_key_table: 'authors', foreign_key_column: 'id' } });
    });

    it('creates an m2m through a junction: alias field, then one relation per junction key', async () => {
      await client.request(createField('books', { field: 'tags', type: 'alias', meta: { special: ['m2m'], interface: 'list-m2m' } }));
      const toBooks = await client.request(
        createRelation({
          collection: 'books_tags',
          field: 'books_id',
          related_collection: 'books',
          meta: { one_field: 'tags', junction_field: 'tags_id', sort_field: null, one_deselect_action: 'nullify' },
          schema: { on_delete: 'SET NULL' },
        }),
      );
      expect(toBooks).toMatchObject({ related_collection: 'books', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { foreign_key_table: 'books' } });
      const toTags = await client.request(
        createRelation({
          collection: 'books_tags',
          field: 'tags_id',
          related_collection: 'tags',
          meta: { one_field: null, junction_field: 'books_id', sort_field: null, one_deselect_action: 'nullify' },
          schema: { on_delete: 'SET NULL' },
        }),
      );
      expect(toTags).toMatchObject({ related_collection: 'tags', meta: { one_field: null, junction_field: 'books_id' }, schema: { foreign_key_table: 'tags' } });

      const relations = await client.request(readRelationByCollection('books_tags'));
      expect(relations.map((relation) => [relation.field, relation.related_collection, relation.meta?.junction_field])).toEqual([
        ['books_id', 'books', 'tags_id'],
        ['tags_id', 'tags', 'books_id'],
      ]);
      expect(await client.request(readField('books', 'tags'))).toMatchObject({ type: 'alias', meta: { special: ['m2m'] } });
      expect((await client.request(readFieldsByCollection('books'))).map((field) => field.field)).toEqual(['id', 'title', 'pages', 'rating', 'author', 'tags']);
    });
  });

  describe('items', () => {
    it('creates many items with createItems, m2m links included, and reads them back with the query fields', async () => {
      expect(
        await client.request(
          createItems('authors', [
            { name: 'Ada Lovelace', country: 'GB', email: 'ada@example.com' },
            { name: 'Grace Hopper', country: 'US', email: 'grace@example.com' },
            { name: 'Linus Torvalds', country: 'FI', email: 'linus@example.com' },
          ]),
        ),
      ).toEqual([
        { id: 1, name: 'Ada Lovelace', country: 'GB', email: 'ada@example.com', books: [] },
        { id: 2, name: 'Grace Hopper', country: 'US', email: 'grace@example.com', books: [] },
        { id: 3, name: 'Linus Torvalds', country: 'FI', email: 'linus@example.com', books: [] },
      ]);
      await client.request(createItems('tags', [{ label: 'math' }, { label: 'computing' }, { label: 'history' }]));

      const books = await client.request(
        createItems(
          'books',
          [
            { title: 'Notes on the Engine', pages: 120, rating: 5, author: 1, tags: [{ tags_id: 1 }, { tags_id: 2 }] },
            { title: 'Poems of Science', pages: 80, author: 1 },
            { title: 'Compilers', pages: 410, rating: 4, author: 2, tags: [{ tags_id: 2 }] },
            { title: 'COBOL Stories', pages: 250, rating: 3, author: 2, tags: [{ tags_id: 2 }, { tags_id: 3 }] },
            { title: 'Just for Fun', pages: 262, rating: 4, author: 3, tags: [{ tags_id: 3 }] },
            { title: 'Anonymous', pages: 10, rating: 1 },
          ],
          { fields: ['id', 'title', 'rating'] },
        ),
      );
      expect(last().url.search).toBe('?fields=id%2Ctitle%2Crating');
      expect(books).toEqual([
        { id: 1, title: 'Notes on the Engine', rating: 5 },
        { id: 2, title: 'Poems of Science', rating: 3 },
        { id: 3, title: 'Compilers', rating: 4 },
        { id: 4, title: 'COBOL Stories', rating: 3 },
        { id: 5, title: 'Just for Fun', rating: 4 },
        { id: 6, title: 'Anonymous', rating: 1 },
      ]);
    });

    it('creates one item with createItem and nested m2o and m2m writes', async () => {
      const kernel = await client.request(
        createItem(
          'books',
          { title: 'Kernel', pages: 300, author: { name: 'Margaret Hamilton', country: 'US', email: 'margaret@example.com' }, tags: [{ tags_id: { label: 'os' } }] },
          { fields: ['*', { author: ['name'] }, { tags: [{ tags_id: ['label'] }] }] },
        ),
      );
      expect(last().url.searchParams.get('fields')).toBe('*,author.name,tags.tags_id.label');
      expect(kernel).toEqual({ id: 7, title: 'Kernel', pages: 300, rating: 3, author: { name: 'Margaret Hamilton' }, tags: [{ tags_id: { label: 'os' } }] });
    });

    it('reads with filter, sort and fields through an m2o dot path (string and object notation)', async () => {
      const long = await loose().request(readItems('books', { filter: { pages: { _gt: 200 } }, sort: ['-pages'], fields: ['title', 'author.name', { author: ['country'] }] }));
      expect(last().url.searchParams.get('fields')).toBe('title,author.name,author.country');
      expect(last().url.searchParams.get('filter')).toBe('{"pages":{"_gt":200}}');
      expect(long).toEqual([
        { title: 'Compilers', author: { name: 'Grace Hopper', country: 'US' } },
        { title: 'Kernel', author: { name: 'Margaret Hamilton', country: 'US' } },
        { title: 'Just for Fun', author: { name: 'Linus Torvalds', country: 'FI' } },
        { title: 'COBOL Stories', author: { name: 'Grace Hopper', country: 'US' } },
      ]);

      const american = await client.request(readItems('books', { filter: { author: { country: { _eq: 'US' } } }, sort: ['title'], fields: ['title'] }));
      expect(american).toEqual([{ title: 'COBOL Stories' }, { title: 'Compilers' }, { title: 'Kernel' }]);

      const byAuthor = await loose().request(
        readItems('books', { filter: { _and: [{ author: { _nnull: true } }, { rating: { _gte: 4 } }] }, sort: ['author.name', '-pages'], fields: ['title', 'author.name'] }),
      );
      expect(byAuthor).toEqual([
        { title: 'Notes on the Engine', author: { name: 'Ada Lovelace' } },
        { title: 'Compilers', author: { name: 'Grace Hopper' } },
        { title: 'Just for Fun', author: { name: 'Linus Torvalds' } },
      ]);

      const counted = await client.request(readItems('books', { fields: ['title', 'count(tags)'], sort: ['title'], limit: 3 }));
      expect(counted).toEqual([
        { title: 'Anonymous', tags_count: 0 },
        { title: 'COBOL Stories', tags_count: 2 },
        { title: 'Compilers', tags_count: 1 },
      ]);
    });

    it('reads and filters an m2m through the junction', async () => {
      const computing = await client.request(
        readItems('books', { filter: { tags: { tags_id: { label: { _eq: 'computing' } } } }, sort: ['title'], fields: ['title', { tags: [{ tags_id: ['label'] }] }] }),
      );
      expect(last().url.searchParams.get('fields')).toBe('title,tags.tags_id.label');
      expect(computing).toEqual([
        { title: 'COBOL Stories', tags: [{ tags_id: { label: 'computing' } }, { tags_id: { label: 'history' } }] },
        { title: 'Compilers', tags: [{ tags_id: { label: 'computing' } }] },
        { title: 'Notes on the Engine', tags: [{ tags_id: { label: 'math' } }, { tags_id: { label: 'computing' } }] },
      ]);
    });

    it('applies deep _filter, _sort and _limit to an o2m', async () => {
      const authors = await client.request(
        readItems('authors', {
          fields: ['name', { books: ['title', 'pages'] }],
          sort: ['name'],
          deep: { books: { _filter: { pages: { _lt: 300 } }, _sort: ['-pages'], _limit: 1 } },
        }),
      );
      expect(last().url.searchParams.get('deep')).toBe('{"books":{"_filter":{"pages":{"_lt":300}},"_sort":["-pages"],"_limit":1}}');
      expect(authors).toEqual([
        { name: 'Ada Lovelace', books: [{ title: 'Notes on the Engine', pages: 120 }] },
        { name: 'Grace Hopper', books: [{ title: 'COBOL Stories', pages: 250 }] },
        { name: 'Linus Torvalds', books: [{ title: 'Just for Fun', pages: 262 }] },
        { name: 'Margaret Hamilton', books: [] },
      ]);
    });

    it('aggregates with aggregate(): count, sum, avg, max, countDistinct, groupBy, with a filter', async () => {
      const perAuthor = await client.request(aggregate('books', { aggregate: { count: '*' }, groupBy: ['author'] }));
      expect(last().url.searchParams.get('aggregate')).toBe('{"count":"*"}');
      expect(last().url.searchParams.get('groupBy')).toBe('author');
      // Tessera answers counts as numbers (docs/query.md); the SDK's types say `string` (Directus on PostgreSQL).
      expect(perAuthor).toEqual([
        { author: 1, count: 2 },
        { author: 2, count: 2 },
        { author: 3, count: 1 },
        { author: 4, count: 1 },
        { author: null, count: 1 },
      ]);

      const stats = await client.request(
        aggregate('books', { aggregate: { sum: 'pages', avg: 'rating', max: 'pages', countDistinct: 'author' }, query: { filter: { author: { _nnull: true } } } }),
      );
      expect(stats).toEqual([{ sum: { pages: 1422 }, avg: { rating: 22 / 6 }, max: { pages: 410 }, countDistinct: { author: 4 } }]);

      const perField = await client.request(aggregate('books', { aggregate: { count: ['id', 'author'] } }));
      expect(perField).toEqual([{ count: { id: 7, author: 6 } }]);

      const filtered = await client.request(aggregate('books', { aggregate: { max: 'pages' }, groupBy: ['author'], query: { filter: { author: { _in: [1, 2] } } } }));
      expect(filtered).toEqual([
        { author: 1, max: { pages: 120 } },
        { author: 2, max: { pages: 410 } },
      ]);
    });

    it('searches text and numeric fields', async () => {
      expect(await client.request(readItems('books', { search: 'COMPIL', fields: ['title'] }))).toEqual([{ title: 'Compilers' }]);
      expect(await client.request(readItems('books', { search: '262', fields: ['title'] }))).toEqual([{ title: 'Just for Fun' }]);
      expect(await client.request(readItems('authors', { search: 'hopper', fields: ['name'] }))).toEqual([{ name: 'Grace Hopper' }]);
    });

    it('pages with limit, offset and page; meta counts arrive on the wire (the SDK returns only data)', async () => {
      expect(await client.request(readItems('books', { sort: ['id'], limit: 2, offset: 1, fields: ['id'] }))).toEqual([{ id: 2 }, { id: 3 }]);
      expect(await client.request(readItems('books', { sort: ['id'], limit: -1, fields: ['id'] }))).toHaveLength(7);

      const page = await client.request(readItems('books', { filter: { pages: { _gt: 100 } }, sort: ['id'], limit: 2, page: 2, fields: ['id'], meta: '*' }));
      expect(last().url.searchParams.get('meta')).toBe('*');
      expect(page).toEqual([{ id: 4 }, { id: 5 }]);
      expect(last().response).toEqual({ data: [{ id: 4 }, { id: 5 }], meta: { total_count: 7, filter_count: 5 } });
    });

    it('reads one item with readItem, relational wildcard included', async () => {
      expect(await client.request(readItem('books', 1, { fields: ['title', { author: ['*'] }] }))).toEqual({
        title: 'Notes on the Engine',
        author: { id: 1, name: 'Ada Lovelace', country: 'GB', email: 'ada@example.com', books: [1, 2] },
      });
    });

    it('updates with updateItem and updateItems (by keys and by query), answering the written items', async () => {
      expect(await client.request(updateItem('books', 2, { rating: 2 }, { fields: ['id', 'rating'] }))).toEqual({ id: 2, rating: 2 });
      expect(last()).toMatchObject({ method: 'PATCH', body: { rating: 2 } });
      expect(last().url.pathname).toBe('/items/books/2');

      expect(await client.request(updateItems('books', [2, 6], { pages: 99 }, { fields: ['id', 'pages'] }))).toEqual([
        { id: 2, pages: 99 },
        { id: 6, pages: 99 },
      ]);
      expect(last().body).toEqual({ keys: [2, 6], data: { pages: 99 } });

      expect(await client.request(updateItems('books', { filter: { pages: { _eq: 99 } } }, { pages: 98 }, { fields: ['id', 'pages'] }))).toEqual([
        { id: 2, pages: 98 },
        { id: 6, pages: 98 },
      ]);
      expect(last().body).toEqual({ query: { filter: { pages: { _eq: 99 } } }, data: { pages: 98 } });

      const moved = await client.request(updateItem('authors', 4, { books: { create: [{ title: 'Apollo Guidance', pages: 140 }], update: [], delete: [] } }, { fields: [{ books: ['title'] }] }));
      expect(moved).toEqual({ books: [{ title: 'Kernel' }, { title: 'Apollo Guidance' }] });
    });

    it('deletes with deleteItem and deleteItems; a deleted item then reads as FORBIDDEN', async () => {
      expect(await client.request(deleteItem('books', 6))).toBeNull();
      expect(last()).toMatchObject({ method: 'DELETE', status: 204, response: null });
      expect(summary(await failure(client.request(readItem('books', 6))))).toEqual({ status: 403, code: 'FORBIDDEN', message: "You don't have permission to access this." });

      const [draft] = await client.request(createItems('tags', [{ label: 'draft' }, { label: 'scrap' }], { fields: ['id'] }));
      expect(await client.request(deleteItems('tags', [draft!.id]))).toBeNull();
      expect(last()).toMatchObject({ method: 'DELETE', status: 204, body: { keys: [draft!.id] } });
      expect(await client.request(deleteItems('tags', { filter: { label: { _eq: 'scrap' } } }))).toBeNull();
      expect(last().body).toEqual({ query: { filter: { label: { _eq: 'scrap' } } } });
      expect(await client.request(readItems('tags', { fields: ['label'], sort: ['id'] }))).toEqual([{ label: 'math' }, { label: 'computing' }, { label: 'history' }, { label: 'os' }]);

      // A batch naming a missing key deletes nothing.
      expect(summary(await failure(client.request(deleteItems('tags', [1, 999_999]))))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(await client.request(readItems('tags', { fields: ['id'], filter: { id: { _eq: 1 } } }))).toEqual([{ id: 1 }]);
    });
  });

  describe('errors through the SDK', () => {
    it('FORBIDDEN for the public, INVALID_TOKEN for a bad static token', async () => {
      const anonymous = createDirectus<Schema>(server.url).with(rest());
      expect(summary(await failure(anonymous.request(readItems('books'))))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
        message: "You don't have permission to access this.",
      });
      const forged = createDirectus<Schema>(server.url).with(rest()).with(staticToken('not-a-token'));
      expect(summary(await failure(forged.request(readItems('books'))))).toEqual({ status: 401, code: 'INVALID_TOKEN', message: 'Invalid token.' });
    });

    it('FORBIDDEN for a missing item, a missing collection and a missing key in an update', async () => {
      const missing = await failure(client.request(readItem('books', 999_999)));
      expect(missing.errors).toEqual([{ message: "You don't have permission to access this.", extensions: { code: 'FORBIDDEN' } }]);
      expect(missing.response.status).toBe(403);
      expect(missing.message).toBe("You don't have permission to access this.");
      expect(summary(await failure(client.request(readItems('nowhere' as 'books'))))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(summary(await failure(client.request(updateItem('books', 999_999, { pages: 1 }))))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('INVALID_PAYLOAD naming the field, and a failed batch writes nothing', async () => {
      expect(summary(await failure(client.request(createItem('books', { title: 'Bad', pages: 'many' as unknown as number }))))).toEqual({
        status: 400,
        code: 'INVALID_PAYLOAD',
        field: 'pages',
        message: 'pages must be an integer',
      });
      expect(summary(await failure(client.request(createItem('books', { pages: 1 }))))).toMatchObject({ status: 400, code: 'INVALID_PAYLOAD', field: 'title' });
      expect(summary(await failure(client.request(createItems('books', [{ title: 'Fine' }, { title: 'Broken', rating: 1.5 }]))))).toMatchObject({
        code: 'INVALID_PAYLOAD',
        field: 'rating',
      });
      expect(await client.request(readItems('books', { filter: { title: { _eq: 'Fine' } }, fields: ['id'] }))).toEqual([]);
      expect(summary(await failure(client.request(createField('books', { field: '1bad', type: 'string' }))))).toMatchObject({ status: 400, code: 'INVALID_PAYLOAD', field: 'field' });
    });

    it('RECORD_NOT_UNIQUE for a taken unique value', async () => {
      expect(summary(await failure(client.request(createItem('authors', { name: 'Copy', email: 'ada@example.com' }))))).toEqual({
        status: 400,
        code: 'RECORD_NOT_UNIQUE',
        field: 'email',
        message: 'Value for field "email" has to be unique.',
      });
    });

    it('INVALID_QUERY for a bad filter value, an unknown operator and an unknown field', async () => {
      expect(summary(await failure(client.request(readItems('books', { filter: { pages: { _gt: 'abc' as unknown as number } } }))))).toEqual({
        status: 400,
        code: 'INVALID_QUERY',
        field: 'pages',
        message: 'Invalid value "abc" for field "pages": expected an integer.',
      });
      expect(summary(await failure(client.request(readItems('books', { filter: { pages: { _foo: 1 } as never } }))))).toEqual({
        status: 400,
        code: 'INVALID_QUERY',
        field: 'pages',
        message: 'Unknown filter operator "_foo" on field "pages".',
      });
      expect(summary(await failure(client.request(readItems('books', { fields: ['nope' as 'title'] }))))).toEqual({
        status: 400,
        code: 'INVALID_QUERY',
        field: 'nope',
        message: 'Field "nope" in fields does not exist in collection "books".',
      });
    });
  });

  describe('schema upkeep and server', () => {
    it('reads and changes collections, fields and relations; deletes a field and a collection', async () => {
      expect(await client.request(updateCollection('books', { meta: { note: 'All books' } }))).toMatchObject({ collection: 'books', meta: { note: 'All books' } });
      expect(await client.request(updateField('books', 'title', { meta: { note: 'The title' }, schema: { max_length: 120 } }))).toMatchObject({
        field: 'title',
        meta: { note: 'The title', required: true },
        schema: { max_length: 120 },
      });
      expect(await client.request(updateRelation('books', 'author', { meta: { one_deselect_action: 'delete' } }))).toMatchObject({
        meta: { one_deselect_action: 'delete', one_field: 'books' },
        schema: { on_delete: 'SET NULL' },
      });

      await client.request(createField('books', { field: 'scratch', type: 'string' }));
      expect(await client.request(deleteField('books', 'scratch'))).toBeNull();
      expect(last()).toMatchObject({ method: 'DELETE', status: 204 });
      expect(summary(await failure(client.request(readField('books', 'scratch'))))).toMatchObject({ status: 403, code: 'FORBIDDEN' });

      await client.request(createCollection({ collection: 'scratch', meta: {}, schema: {} }));
      expect(await client.request(deleteCollection('scratch'))).toBeNull();
      expect(summary(await failure(client.request(readCollection('scratch'))))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('answers serverPing, serverHealth and serverInfo', async () => {
      expect(await client.request(serverPing())).toBe('pong');
      expect(await client.request(serverHealth())).toMatchObject({ status: 'ok' });
      expect(await client.request(serverInfo())).toMatchObject({ project: { project_name: 'Tessera' } });
    });
  });

  describe('Directus compatibility: migration order, SEARCH, batches, cache', () => {
    // Many Directus migration scripts create the relation (naming meta.one_field) before the alias field.
    it('creates the relation first, then the o2m alias it already made (migration-script order)', async () => {
      await loose().request(createCollection({ collection: 'publishers', meta: {}, schema: {}, fields: [{ field: 'name', type: 'string' }] }));
      await loose().request(createCollection({ collection: 'editions', meta: {}, schema: {}, fields: [{ field: 'label', type: 'string' }, { field: 'publisher', type: 'integer', meta: { special: ['m2o'] } }] }));
      await loose().request(createRelation({ collection: 'editions', field: 'publisher', related_collection: 'publishers', meta: { one_field: 'editions' }, schema: { on_delete: 'SET NULL' } }));
      const alias = await loose().request(
        createField('publishers', { field: 'editions', type: 'alias', meta: { special: ['o2m'], interface: 'list-o2m', note: 'Their editions' }, schema: null } as any),
      );
      expect(alias).toMatchObject({ collection: 'publishers', field: 'editions', type: 'alias', schema: null, meta: { special: ['o2m'], interface: 'list-o2m', note: 'Their editions' } });
      expect(last()).toMatchObject({ method: 'POST', status: 200 });
      await loose().request(createItem('publishers', { name: 'Pragmatic', editions: [{ label: 'First' }, { label: 'Second' }] }));
      expect(await loose().request(readItems('publishers', { fields: ['name', 'editions.label'], deep: { editions: { _sort: ['label'] } } }))).toEqual([
        { name: 'Pragmatic', editions: [{ label: 'First' }, { label: 'Second' }] },
      ]);
    });

    it('reads with SEARCH (withSearch): the query travels in the body', async () => {
      const found = await loose().request(withSearch(readItems('editions', { filter: { label: { _eq: 'Second' } }, fields: ['label', 'publisher.name'] })));
      expect(found).toEqual([{ label: 'Second', publisher: { name: 'Pragmatic' } }]);
      expect(last().method).toBe('SEARCH');
      expect(last().url.search).toBe('');
      expect(last().body).toMatchObject({ query: { fields: ['label', 'publisher.name'] } });
    });

    it('updates collections and fields in batches, and clears the cache', async () => {
      const collections = await loose().request(updateCollectionsBatch([{ collection: 'publishers', meta: { icon: 'store' } }, { collection: 'editions', meta: { icon: 'book' } }] as any));
      expect(collections).toMatchObject([{ collection: 'publishers', meta: { icon: 'store' } }, { collection: 'editions', meta: { icon: 'book' } }]);
      const fields = await loose().request(updateFields('editions', [{ field: 'label', meta: { width: 'half' } }, { field: 'publisher', meta: { note: 'Who publishes it' } }] as any));
      expect(fields).toMatchObject([{ field: 'label', meta: { width: 'half' } }, { field: 'publisher', meta: { note: 'Who publishes it' } }]);
      await loose().request(clearCache());
      expect(last()).toMatchObject({ method: 'POST', status: 200 }); // as Directus answers it (issue 31)
    });

    it('round-trips schemaSnapshot → schemaDiff → schemaApply, field-meta changes included', async () => {
      const snapshot = (await loose().request(schemaSnapshot())) as any;
      const label = snapshot.fields.find((field: { collection: string; field: string }) => field.collection === 'editions' && field.field === 'label');
      label.meta = { ...label.meta, note: 'Edition label', validation: null, searchable: true };
      const diff = await loose().request(schemaDiff(snapshot));
      await loose().request(schemaApply(diff));
      expect(last()).toMatchObject({ method: 'POST', status: 204 });
      expect(await loose().request(readField('editions', 'label'))).toMatchObject({ meta: { note: 'Edition label' } });
    });
  });

  describe('auth and /users/me as the SDK uses them', () => {
    // The SDK refreshes on its own (autoRefresh, 30 s before `expires`), so /auth/refresh must rotate tokens.
    it('refreshes and logs out (POST /auth/refresh, POST /auth/logout)', async () => {
      const session = createDirectus<Schema>(server.url).with(rest()).with(authentication('json', { autoRefresh: false }));
      const first = await session.login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
      const refreshed = await session.refresh();
      expect(refreshed).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires: 900_000, expires_at: expect.any(Number) });
      expect(refreshed.refresh_token).not.toBe(first.refresh_token);
      expect(await session.request(readMe())).toMatchObject({ email: TEST_ADMIN.email });
      await session.logout();
      expect(await session.getToken()).toBeNull();
      const replay = await fetch(`${server.url}/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: refreshed.refresh_token }) });
      expect(replay.status).toBe(401);
    });

    // readMe({ fields: ['id', 'email'] }) sends GET /users/me?fields=id%2Cemail and expects exactly those fields.
    it('applies the query to /users/me and answers ISO timestamps', async () => {
      expect(Object.keys(await client.request(readMe({ fields: ['id', 'email'] }))).sort()).toEqual(['email', 'id']);
      const me = await client.request(readMe({ fields: ['last_access'] }));
      expect(me.last_access).toMatch(ISO_TIMESTAMP);
    });
  });
});
