import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function gql(query: string, variables?: Record<string, unknown>, token = admin, path = '/graphql') {
  return t.request.post(path).set(auth(token)).send({ query, variables });
}

beforeAll(async () => {
  t = await createTestApp({ GRAPHQL_QUERY_DEPTH_MAX: '4' });
  admin = await t.login();
  const send = async (path: string, body: unknown) => t.request.post(path).set(auth(admin)).send(body as object).expect(200);
  await send('/collections', { collection: 'writers', fields: [{ field: 'name', type: 'string' }, { field: 'score', type: 'integer' }] });
  await send('/collections', { collection: 'posts', fields: [{ field: 'title', type: 'string' }, { field: 'views', type: 'integer' }, { field: 'category', type: 'string' }, { field: 'data', type: 'json' }, { field: 'writer', type: 'integer' }] });
  await send('/relations', { collection: 'posts', field: 'writer', related_collection: 'writers', meta: { one_field: 'posts' } });
  await send('/items/writers', [{ name: 'Ada', score: 3 }, { name: 'Bob', score: 5 }]);
  await send('/items/posts', [
    { title: 'a1', views: 10, category: 'x', writer: 1, data: { k: 1 } },
    { title: 'a2', views: 20, category: 'y', writer: 1 },
    { title: 'a3', views: 30, category: 'x', writer: 1 },
    { title: 'b1', views: 5, category: 'x', writer: 2 },
  ]);
});
afterAll(() => t.close());

describe('GraphQL queries', () => {
  it('reads a list with filter, sort, limit, offset, page and search; JSON values pass through', async () => {
    const response = await gql('query ($f: posts_filter) { posts(filter: $f, sort: ["-views"], limit: 2, offset: 1) { id title data } }', { f: { category: { _eq: 'x' } } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { posts: [{ id: '1', title: 'a1', data: { k: 1 } }, { id: '4', title: 'b1', data: null }] } });
    const page = await gql('{ posts(sort: ["id"], limit: 1, page: 2) { title } }');
    expect(page.body.data.posts).toEqual([{ title: 'a2' }]);
    const search = await gql('{ posts(search: "b1") { title } }');
    expect(search.body.data.posts).toEqual([{ title: 'b1' }]);
  });

  it('reads by id, and relations with their own arguments (o2m filter, sort, limit)', async () => {
    const byId = await gql('{ posts_by_id(id: 2) { title writer { name } } }');
    expect(byId.body).toEqual({ data: { posts_by_id: { title: 'a2', writer: { name: 'Ada' } } } });
    const nested = await gql('{ writers(sort: ["id"]) { name posts(filter: { views: { _gte: 20 } }, sort: ["-views"], limit: 1) { title } } }');
    expect(nested.body.data.writers).toEqual([
      { name: 'Ada', posts: [{ title: 'a3' }] },
      { name: 'Bob', posts: [] },
    ]);
    const fragment = await gql('query { writers(limit: 1, sort: ["id"]) { ...W } } fragment W on writers { name posts(sort: ["id"]) { id } }');
    expect(fragment.body.data.writers).toEqual([{ name: 'Ada', posts: [{ id: '1' }, { id: '2' }, { id: '3' }] }]);
  });

  it('aggregates with groupBy: { group, count { field }, sum, avg, countAll }', async () => {
    const response = await gql('{ posts_aggregated(groupBy: ["category"], sort: ["category"]) { group countAll count { id } sum { views } avg { views } max { views } } }');
    expect(response.status).toBe(200);
    expect(response.body.data.posts_aggregated).toEqual([
      { group: { category: 'x' }, countAll: 3, count: { id: 3 }, sum: { views: 45 }, avg: { views: 15 }, max: { views: 30 } },
      { group: { category: 'y' }, countAll: 1, count: { id: 1 }, sum: { views: 20 }, avg: { views: 20 }, max: { views: 20 } },
    ]);
    const filtered = await gql('{ posts_aggregated(filter: { writer: { id: { _eq: 2 } } }) { count { id } } }');
    expect(filtered.body.data.posts_aggregated).toEqual([{ count: { id: 1 } }]);
  });
});

describe('GraphQL mutations (through the ItemsService)', () => {
  it('creates, updates and deletes one and many', async () => {
    const one = await gql('mutation { create_writers_item(data: { name: "Cy", score: 1 }) { id name } }');
    expect(one.body.data.create_writers_item).toMatchObject({ name: 'Cy' });
    const id = one.body.data.create_writers_item.id;
    const many = await gql('mutation ($d: [create_writers_input!]!) { create_writers_items(data: $d) { id name } }', { d: [{ name: 'Di' }, { name: 'Ed' }] });
    const ids = many.body.data.create_writers_items.map((item: { id: string }) => item.id);
    expect(many.body.data.create_writers_items.map((item: { name: string }) => item.name)).toEqual(['Di', 'Ed']);
    const updated = await gql(`mutation { update_writers_item(id: ${id}, data: { score: 9 }) { score } }`);
    expect(updated.body.data.update_writers_item).toEqual({ score: 9 });
    const updatedMany = await gql('mutation ($ids: [ID!]!) { update_writers_items(ids: $ids, data: { score: 7 }) { score } }', { ids });
    expect(updatedMany.body.data.update_writers_items).toEqual([{ score: 7 }, { score: 7 }]);
    const deleted = await gql(`mutation { delete_writers_item(id: ${id}) { id } }`);
    expect(deleted.body.data.delete_writers_item).toEqual({ id: String(id) });
    const deletedMany = await gql('mutation ($ids: [ID!]!) { delete_writers_items(ids: $ids) { ids } }', { ids });
    expect(deletedMany.body.data.delete_writers_items.ids.map(String)).toEqual(ids);
    const activity = await t.request.get('/activity?filter[collection][_eq]=writers&fields=action&limit=-1').set(auth(admin)).expect(200);
    expect(activity.body.data.filter((row: { action: string }) => row.action === 'delete')).toHaveLength(3);
  });

  it('refuses invalid data with a 4xx code naming the field, not a 500', async () => {
    const response = await gql('mutation { create_posts_item(data: { views: 2147483648 }) { id } }');
    expect(response.status).toBe(400);
    const bad = await gql('mutation { create_writers_item(data: { score: "x" }) { id } }');
    expect(bad.status).toBe(400);
    // Directus's one validation error; graphql-js's own message and location kept in extensions.
    expect(bad.body.errors[0]).toMatchObject({ message: 'GraphQL validation error.', extensions: { code: 'GRAPHQL_VALIDATION' } });
    expect(bad.body.errors[0].extensions.errors[0].locations).toBeDefined();
    // It ran: 200, the field's error beside `data` (GraphQL over HTTP, Directus).
    const foreign = await gql('mutation { create_posts_item(data: { title: "z", writer: 999 }) { id } }');
    expect(foreign.status).toBe(200);
    expect(foreign.body.data).toEqual({ create_posts_item: null });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'INVALID_FOREIGN_KEY', field: 'writer' });
  });
});

describe('GraphQL transport and limits', () => {
  it('reads a collection with nested relations in ONE SQL statement per root field, like REST', async () => {
    let count = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        count += 1;
        return Promise.resolve(args.result);
      },
    };
    const original = t.context.servicesContext;
    t.context.servicesContext = (accountability, db) => original(accountability, (db ?? t.system.db).withPlugin(plugin));
    try {
      await gql('{ writers { id } }'); // warm the schema and permission caches
      count = 0;
      const response = await gql('{ writers(sort: ["id"]) { name posts(sort: ["id"], limit: 2) { title writer { name } } } }');
      expect(response.body, JSON.stringify(response.body)).toHaveProperty('data');
      expect(response.body.data.writers[0].posts[0].writer.name).toBe('Ada');
      expect(count).toBe(1);
      count = 0;
      await gql('{ writers { name } posts { title writer { name } } }');
      expect(count).toBe(2);
      count = 0;
      await t.request.get('/items/writers?fields=name,posts.title,posts.writer.name').set(auth(admin)).expect(200);
      expect(count).toBe(1);
    } finally {
      t.context.servicesContext = original;
    }
  });

  it('refuses a query deeper than GRAPHQL_QUERY_DEPTH_MAX with a 400 before running it', async () => {
    const response = await gql('{ writers { posts { writer { posts { writer { name } } } } } }');
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ message: expect.stringContaining('depth 6 exceeds the maximum of 4'), extensions: { code: 'INVALID_QUERY' } });
    expect((await gql('{ writers { posts { writer { name } } } }')).status).toBe(200);
  });

  it('rebuilds the schema when the schema changes', async () => {
    expect((await gql('{ writers { nickname } }')).status).toBe(400);
    await t.request.post('/fields/writers').set(auth(admin)).send({ field: 'nickname', type: 'string' }).expect(200);
    const response = await gql('{ writers(limit: 1) { nickname } }');
    expect(response.status).toBe(200);
    expect(response.body.data.writers).toEqual([{ nickname: null }]);
  });

  it('serves GET queries and refuses mutations over GET', async () => {
    const get = await t.request.get('/graphql').query({ query: '{ writers(limit: 1, sort: ["id"]) { name } }' }).set(auth(admin));
    expect(get.status).toBe(200);
    expect(get.body.data.writers).toEqual([{ name: 'Ada' }]);
    const mutation = await t.request.get('/graphql').query({ query: 'mutation { delete_writers_item(id: 1) { id } }' }).set(auth(admin));
    expect(mutation.status).toBe(405);
  });
});
