import { execute, parse } from 'graphql';
import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import type { GraphQLContext } from '../../../server/graphql/build-schema.ts';
import { createGraphQLSchemaCache } from '../../../server/graphql/schema-cache.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createCursorFixture, type CursorFixture } from '../query/cursor-fixture.ts';

/** Keyset cursors in GraphQL (issue 36 item 4, docs/graphql.md "Cursors"): `after` and `<collection>_next_cursor`. */
describe('GraphQL cursors', () => {
  let f: CursorFixture;
  beforeAll(async () => {
    f = await createCursorFixture();
  });
  afterAll(() => f.t.close());

  async function gql(query: string, variables: Record<string, unknown> = {}, token = f.admin) {
    const response = await f.t.request.post('/graphql').set(f.as(token)).send({ query, variables });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { data: any; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };
  }

  const PAGE = `query ($after: String, $limit: Int) {
    posts(sort: $sort, limit: $limit, after: $after) { id }
    posts_next_cursor(sort: $sort, limit: $limit, after: $after)
  }`.replace('query (', 'query ($sort: [String],');

  /** Every page through GraphQL and through REST side by side: the same items and the same cursors. */
  async function walkBoth(sort: string, limit: number, token: string): Promise<unknown[]> {
    const seen: unknown[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const body = await gql(PAGE, { sort: [sort], limit, after }, token);
      expect(body.errors).toBeUndefined();
      const rest = await f.get(`/items/posts?sort=${sort}&limit=${limit}&fields=id&meta=next_cursor${after === null ? '' : `&after=${encodeURIComponent(after)}`}`, token);
      expect(body.data.posts).toEqual(asGraphQL(rest.data));
      expect(body.data.posts_next_cursor).toBe(rest.meta!.next_cursor);
      // Alone, the cursor field reads the page's keys itself, and gives the same cursor.
      const alone = await gql('query ($sort: [String], $limit: Int, $after: String) { posts_next_cursor(sort: $sort, limit: $limit, after: $after) }', { sort: [sort], limit, after }, token);
      expect(alone.data.posts_next_cursor).toBe(rest.meta!.next_cursor);
      seen.push(...body.data.posts.map((item: { id: unknown }) => item.id));
      after = body.data.posts_next_cursor;
      if (after === null) return seen;
    }
    throw new Error('more than 20 pages');
  }

  /** REST items as GraphQL gives them: keys are IDs, serialised as strings. */
  const asGraphQL = (items: Array<{ id: unknown }>) => items.map((item) => ({ id: String(item.id) }));
  const idsOf = async (path: string, token = f.admin) => asGraphQL((await f.get(path, token)).data).map((item) => item.id);

  it.each([['score'], ['-score'], ['title'], ['-id']])('sort=%s: GraphQL pages equal the REST pages, and hold every item once', async (sort) => {
    const all = await idsOf(`/items/posts?sort=${sort}&limit=-1&fields=id`);
    for (const limit of [2, 5]) expect(await walkBoth(sort, limit, f.admin)).toEqual(all);
  });

  it('filters every page by the role permissions', async () => {
    const published = await idsOf('/items/posts?sort=-score&limit=-1&fields=id', f.reader);
    const drafts = await idsOf('/items/posts?filter[status][_eq]=draft&limit=-1&fields=id');
    expect(published.some((id) => drafts.includes(id))).toBe(false);
    expect(await walkBoth('-score', 2, f.reader)).toEqual(published);
  });

  it('refuses an edited cursor, another sort, page or offset with a GraphQL error INVALID_QUERY naming after, never a 500', async () => {
    const { meta } = await f.get('/items/posts?sort=score&limit=2&meta=next_cursor&fields=id');
    const cursor = meta!.next_cursor as string;
    const [, signature] = cursor.split('.');
    const edited = `${Buffer.from(JSON.stringify([['score'], ['x', '1']]), 'utf8').toString('base64url')}.${signature}`;
    for (const args of [`sort: ["score"], after: "${edited}"`, 'after: "not*a*cursor"', `sort: ["-score"], after: "${cursor}"`, `sort: ["score"], page: 2, after: "${cursor}"`, `sort: ["score"], offset: 1, after: "${cursor}"`]) {
      for (const query of [`{ posts(${args}) { id } }`, `{ posts_next_cursor(${args}) }`, `{ posts(${args}) { id } posts_next_cursor(${args}) }`]) {
        const body = await gql(query);
        expect(body.errors?.length, query).toBeGreaterThan(0);
        for (const error of body.errors!) {
          expect(error.extensions, query).toMatchObject({ code: 'INVALID_QUERY', field: 'after' });
          expect(error.message, query).toMatch(/after/);
        }
      }
    }
  });

  it('pages a nested one-to-many list with its after argument, cursors from the related collection read with the same sort', async () => {
    let after: string | null = null;
    const seen: unknown[] = [];
    for (let pages = 0; pages < 10; pages++) {
      const body = await gql(
        `query ($after: String) {
          authors(filter: { id: { _eq: 1 } }) { posts(sort: ["-score"], limit: 3, after: $after) { id } }
          posts_next_cursor(filter: { author: { id: { _eq: 1 } } }, sort: ["-score"], limit: 3, after: $after)
        }`,
        { after },
        f.reader,
      );
      expect(body.errors).toBeUndefined();
      const top = await gql('query ($after: String) { posts(filter: { author: { id: { _eq: 1 } } }, sort: ["-score"], limit: 3, after: $after) { id } }', { after }, f.reader);
      expect(body.data.authors[0].posts).toEqual(top.data.posts);
      seen.push(...top.data.posts.map((item: { id: unknown }) => item.id));
      after = body.data.posts_next_cursor;
      if (after === null) break;
    }
    expect(seen).toEqual(await idsOf('/items/posts?filter[author][_eq]=1&sort=-score&limit=-1&fields=id', f.reader));
    const wrong = await gql('{ authors { posts(sort: ["score"], after: "not*a*cursor") { id } } }');
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'deep.posts._after' });
  });

  it('gives the cursor field its own read beside a list that may not run (directives, fragments), before or after it', async () => {
    const rest = await f.get('/items/posts?sort=score&limit=2&fields=id&meta=next_cursor');
    const expected = rest.meta!.next_cursor;
    for (const query of [
      'query ($on: Boolean!) { posts(sort: ["score"], limit: 2) @include(if: $on) { id } posts_next_cursor(sort: ["score"], limit: 2) }',
      'query ($on: Boolean!) { posts_next_cursor(sort: ["score"], limit: 2) posts(sort: ["score"], limit: 2) @skip(if: $on) { id } }',
      'query ($on: Boolean!) { posts_next_cursor(sort: ["score"], limit: 2) ... on Query @include(if: $on) { posts(sort: ["score"], limit: 2) { id } } }',
      'query ($on: Boolean!) { posts_next_cursor(sort: ["score"], limit: 2) posts(sort: ["score"], limit: 2) { id } mine: posts(sort: ["score"], limit: 2) { title @include(if: $on) } }',
      'query ($on: Boolean!) { posts(sort: ["score"], limit: 3) { id @skip(if: $on) } posts_next_cursor(sort: ["score"], limit: 2) }',
    ]) {
      for (const on of [true, false]) {
        const body = await gql(query, { on });
        expect(body.errors, query).toBeUndefined();
        expect(body.data.posts_next_cursor, query).toBe(expected);
      }
    }
  });

  /** The statements a GraphQL document runs (through graphql-js's executor), read off the database handle it is given. */
  async function statementsOf(document: string, variableValues: Record<string, unknown> = {}): Promise<{ data: unknown; statements: string[] }> {
    const statements: string[] = [];
    const { schema, items } = await recordingContext(statements);
    const contextValue: GraphQLContext = { items };
    const result = await execute({ schema, document: parse(document), variableValues, contextValue });
    expect(result.errors).toBeUndefined();
    return { data: result.data, statements };
  }

  /** The GraphQL schema of the platform itself, and an items context whose statements are recorded in `into`. */
  async function recordingContext(into: string[]) {
    const accountability = systemAccountability();
    const { schema, overview, access } = await createGraphQLSchemaCache(f.t.context)(accountability, 'items');
    const db = recording(f.t.context.servicesContext(accountability).db, into);
    return { schema, items: { ...f.t.context.servicesContext(accountability, db), schema: overview, access } };
  }

  it('compiles a read without after to the SQL it compiled before cursors existed', async () => {
    const { statements } = await statementsOf('{ posts(sort: ["score"], limit: 3, filter: { score: { _gte: 2 } }) { id title author { name } } }');
    // The Query the GraphQL list built before `after`: readByQuery with fields, sort, limit and filter alone.
    const before: string[] = [];
    await new ItemsService('posts', (await recordingContext(before)).items).readByQuery({ fields: ['id', 'title', 'author.name'], sort: ['score'], limit: 3, filter: { score: { _gte: 2 } } });
    expect(statements).toEqual(before);
    expect(statements.join('\n')).not.toMatch(/__cursor/);
  });

  it('reads a list and its next cursor in one statement', async () => {
    const { data, statements } = await statementsOf('{ posts(sort: ["score"], limit: 3) { id } posts_next_cursor(sort: ["score"], limit: 3) }');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/__cursor/);
    const rest = await f.get('/items/posts?sort=score&limit=3&fields=id&meta=next_cursor');
    expect(data).toEqual({ posts: asGraphQL(rest.data), posts_next_cursor: rest.meta!.next_cursor });
  });
});

/** `db` with every statement it runs recorded in `into` (observed, then run unchanged). */
function recording(db: Kysely<any>, into: string[]): Kysely<any> {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'executeQuery') {
        return (query: CompiledQuery) => {
          into.push(query.sql);
          return target.executeQuery(query);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
