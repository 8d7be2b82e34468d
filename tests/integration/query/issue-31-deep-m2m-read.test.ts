import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Counts the statements sent through a handle. */
function statementCounter(): { plugin: KyselyPlugin; count: () => number } {
  let count = 0;
  return {
    plugin: {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        count += 1;
        return Promise.resolve(args.result);
      },
    },
    count: () => count,
  };
}

// Issue 31 item 11: an m2m read with fields=*.*.*.*.* filtering three levels deep on 141 rows took 2.5–3 s.
describe('a deep m2m read runs in a bounded number of statements, whatever the number of rows', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
    const post = (path: string, body: object) => t.request.post(path).set(auth).send(body).expect(200);
    const make = (collection: string, fields: Array<Record<string, unknown>>) => post('/collections', { collection, fields });
    await make('regions', [{ field: 'name', type: 'string' }]);
    await make('owners', [{ field: 'name', type: 'string' }, { field: 'region', type: 'integer' }]);
    await make('tags', [{ field: 'name', type: 'string' }, { field: 'owner', type: 'integer' }]);
    await make('posts', [{ field: 'title', type: 'string' }]);
    await make('posts_tags', [{ field: 'posts_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }]);
    await post('/relations', { collection: 'owners', field: 'region', related_collection: 'regions' });
    await post('/relations', { collection: 'tags', field: 'owner', related_collection: 'owners' });
    await post('/relations', { collection: 'posts_tags', field: 'posts_id', related_collection: 'posts', meta: { one_field: 'tags', junction_field: 'tags_id' } });
    await post('/relations', { collection: 'posts_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'posts_id' } });
    await post('/items/regions', [{ name: 'north' }, { name: 'south' }]);
    await post('/items/owners', Array.from({ length: 6 }, (_, index) => ({ name: `owner ${index}`, region: (index % 2) + 1 })));
    await post('/items/tags', Array.from({ length: 12 }, (_, index) => ({ name: `tag ${index}`, owner: (index % 6) + 1 })));
  });
  afterAll(() => t.close());

  const QUERY = 'fields=*.*.*.*.*&filter[tags][tags_id][owner][region][name][_eq]=north&limit=-1';

  async function countedRead(): Promise<{ statements: number; rows: Array<Record<string, any>> }> {
    const counter = statementCounter();
    const schema = await t.context.schema.get();
    const service = new ItemsService('posts', { ...t.system, db: t.system.db.withPlugin(counter.plugin), schema });
    const { data } = await service.readByQuery(parseQuery(QUERY));
    return { statements: counter.count(), rows: data as Array<Record<string, any>> };
  }

  async function addPosts(from: number, count: number): Promise<void> {
    const posts = Array.from({ length: count }, (_, index) => ({ title: `post ${from + index}`, tags: [1, 2, 3].map((offset) => ({ tags_id: ((from + index + offset) % 12) + 1 })) }));
    await t.request.post('/items/posts').set(auth).send(posts).expect(200);
  }

  it('reads 3 and 141 posts, nested five levels, in one statement each', async () => {
    await addPosts(0, 3);
    const few = await countedRead();
    await addPosts(3, 138);
    const many = await countedRead();
    expect(few.statements).toBe(1);
    expect(many.statements).toBe(1);
    expect(many.rows.length).toBeGreaterThan(few.rows.length);
    expect(many.rows.length).toBeLessThanOrEqual(141);
    // The whole tree came back: post → junction → tag → owner → region.
    const region = many.rows[0]!.tags[0].tags_id.owner.region;
    expect(region).toMatchObject({ name: expect.any(String) });
    expect(many.rows.every((post) => post.tags.some((link: any) => link.tags_id.owner.region.name === 'north'))).toBe(true);

    const response = await t.request.get(`/items/posts?${QUERY}`).set(auth).expect(200);
    expect(response.body.data).toHaveLength(many.rows.length);
  });
});
