import { GraphQLID, GraphQLString } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import type { Projection } from '../../../server/graphql/fast-read.ts';
import { graphqlShape } from '../../../server/graphql/json-shape.ts';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
const POSTS = 40;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.login();
  const send = async (path: string, body: unknown) => t.request.post(path).set({ Authorization: `Bearer ${admin}` }).send(body as object).expect(200);
  await send('/collections', { collection: 'writers', fields: [{ field: 'name', type: 'string' }] });
  await send('/collections', { collection: 'posts', fields: [{ field: 'title', type: 'string' }, { field: 'writer', type: 'integer' }] });
  await send('/relations', { collection: 'posts', field: 'writer', related_collection: 'writers' });
  await send('/items/writers', [{ name: 'Ada' }, { name: 'Bob' }]);
  await send('/items/posts', Array.from({ length: POSTS }, (_, index) => ({ title: `p${index}`, writer: (index % 2) + 1 })));
});
afterAll(() => t.close());

type Plan = { 'Relation Name'?: string; 'Actual Loops'?: number; Plans?: Plan[] };

function loopsOn(plan: Plan, table: string): number {
  const own = plan['Relation Name'] === table ? (plan['Actual Loops'] ?? 0) : 0;
  return own + (plan.Plans ?? []).reduce((sum, child) => sum + loopsOn(child, table), 0);
}

describe('GraphQL JSON built by PostgreSQL', () => {
  // `{ posts { id title writer { name } } }`: three keys read from the one REST item.
  const fields: Projection[] = [
    { kind: 'leaf', key: 'id', source: 'id', type: GraphQLID, nonNull: true, sourceType: 'integer' },
    { kind: 'leaf', key: 'title', source: 'title', type: GraphQLString, nonNull: false, sourceType: 'string' },
    { kind: 'object', key: 'writer', source: 'writer', nonNull: false, list: false, itemNonNull: false, fields: [{ kind: 'leaf', key: 'name', source: 'name', type: GraphQLString, nonNull: false, sourceType: 'string' }] },
  ];

  it('builds each item from the columns, each relation read once per item', async () => {
    const textShape = graphqlShape(fields)!;
    const schema = await t.context.schema.get();
    const compiled = compileReadQuery(schema, 'posts', { fields: ['id', 'title', 'writer.name'], limit: -1 }, { accountability: systemAccountability(), asText: true, textShape });
    const db = t.context.servicesContext(systemAccountability()).db;
    const query = compiled.statement.compile(db);
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: Plan }] }>({ ...query, sql: `explain (analyze, format json) ${query.sql}` });
    // One look-up of the writer per post, however many keys read the item.
    expect(loopsOn(rows[0]!['QUERY PLAN'][0].Plan, 'writers')).toBe(POSTS);
    const { rows: items } = await db.executeQuery<{ data: string }>(query);
    expect(items[0]!.data).toBe('{"id":"1","title":"p0","writer":{"name":"Ada"}}');
  });

  it('refuses fields whose output PostgreSQL cannot print as graphql-js does', () => {
    const float: Projection = { kind: 'leaf', key: 'rating', source: 'rating', type: GraphQLString, nonNull: false, sourceType: 'float' };
    expect(graphqlShape([...fields, float])).toBeNull();
    expect(graphqlShape([{ ...fields[0]!, sourceType: undefined } as Projection])).toBeNull();
  });

  it('escapes keys and constants as JSON', async () => {
    const schema = await t.context.schema.get();
    const textShape = [{ key: 'a"b', constant: 'line\nquote"' }, { key: 'n', source: 'title' }];
    const compiled = compileReadQuery(schema, 'posts', { fields: ['title'], limit: 1 }, { accountability: systemAccountability(), asText: true, textShape });
    const { rows } = await compiled.statement.execute(t.context.servicesContext(systemAccountability()).db);
    expect((rows[0] as { data: string }).data).toBe(JSON.stringify({ 'a"b': 'line\nquote"', n: 'p0' }));
  });
});
