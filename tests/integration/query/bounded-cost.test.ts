import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import { createContext } from '../../../server/query/context.ts';
import { buildSelection } from '../../../server/query/selection.ts';
import { QUERY_MAX_FIELDS_DEFAULT, QUERY_MAX_RELATIONS_DEFAULT } from '../../../server/query/selection-budget.ts';
import { openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

const wildcard = (levels: number): string => Array.from({ length: levels }, () => '*').join('.');

/** Fields and relations a selection of `articles` uses, counted with limits high enough not to stop it. */
function usage(fields: string): { fields: number; relations: number } {
  const ctx = createContext(fixture.schema, { accountability: null, maxFields: 1e9, maxRelations: 1e9 });
  const articles = fixture.schema.collections.articles!;
  buildSelection(ctx, articles, parseQuery(`fields=${fields}`).fields!, { depth: 0, prefix: '' });
  return { fields: ctx.budget.fields, relations: ctx.budget.relations };
}

function refusal(run: () => unknown): InvalidQueryError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidQueryError) return error;
    throw error;
  }
  throw new Error('expected an InvalidQueryError');
}

describe('wildcard expansion is bounded', () => {
  it('grows with every level of *, which is what made *.*.*.*.*.*.*.*.* take 36 s', () => {
    const counts = [1, 2, 3, 4].map((levels) => usage(wildcard(levels)));
    for (let i = 1; i < counts.length; i++) expect(counts[i]!.relations).toBeGreaterThan(counts[i - 1]!.relations);
    // The defaults let the usual `*.*` and `*.*.*` through.
    expect(counts[2]!.relations).toBeLessThanOrEqual(QUERY_MAX_RELATIONS_DEFAULT);
    expect(counts[2]!.fields).toBeLessThanOrEqual(QUERY_MAX_FIELDS_DEFAULT);
  });

  it('refuses 9 and 11 levels of * with 400 INVALID_QUERY naming fields, before building the whole tree', () => {
    for (const levels of [9, 11]) {
      const started = performance.now();
      const error = refusal(() => compileReadQuery(fixture.schema, 'articles', parseQuery(`fields=${wildcard(levels)}`), { accountability: null }));
      expect(performance.now() - started).toBeLessThan(500);
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_QUERY');
      expect(error.extensions.field).toBe('fields');
      expect(error.message).toMatch(/fields (selects|reads) more than/);
    }
  });

  it('applies the configured limits (QUERY_MAX_FIELDS, QUERY_MAX_RELATIONS)', async () => {
    const read = (fields: string, limits: { maxFields?: number; maxRelations?: number }) =>
      readByQuery(fixture.db, fixture.schema, 'articles', parseQuery(`fields=${fields}&sort=id&limit=1`), { accountability: null, ...limits });
    expect((await read('id,title', { maxFields: 2 })).data).toEqual([{ id: 1, title: 'Hello World' }]);
    await expect(read('id,title,rating', { maxFields: 2 })).rejects.toMatchObject({ code: 'INVALID_QUERY', extensions: { field: 'fields' } });
    expect((await read('id,author.name', { maxRelations: 1 })).data).toHaveLength(1);
    await expect(read('id,author.name,comments.body', { maxRelations: 1 })).rejects.toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('more than 1 related') });
    await expect(read('*.*', { maxRelations: 2 })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('still answers *.*.* within the defaults, and quickly', async () => {
    const started = performance.now();
    const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery(`fields=${wildcard(3)}&sort=id`), { accountability: null });
    expect(data.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
