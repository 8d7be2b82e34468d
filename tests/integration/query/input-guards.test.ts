import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accountability } from '../../../server/auth/accountability.ts';
import { InvalidQueryError } from '../../../server/errors.ts';
import { castValue } from '../../../server/query/cast-value.ts';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { resolvePage } from '../../../server/query/pagination.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { postgresRegexProblem } from '../../../server/query/postgres-regex.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { Filter, ReadPolicy } from '../../../server/query/types.ts';
import { FIXTURE_IDS, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

const ada: Accountability = { user: FIXTURE_IDS.ada, role: FIXTURE_IDS.editors, admin: false, app: true, ip: null, userAgent: null, origin: null, session: null, share: null };

async function ids(filter: object, accountability: Accountability | null = null): Promise<unknown[]> {
  const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', { fields: ['id'], filter: filter as Filter, sort: ['id'] }, { accountability });
  return data.map((item) => item.id);
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

describe('_regex: the check agrees with PostgreSQL', () => {
  const PATTERNS = [
    '^H.*(World|gem)$',
    '(?<n>a)',
    '(?<=a)b',
    '(?<!a)b',
    '(?=a)',
    '(?:a|b)+',
    '\\p{L}',
    '\\P{L}',
    '\\k<n>',
    'a{1,100000}',
    'a{255}',
    'a{256}',
    'a{2,255}',
    'a{1,}',
    '\\d+\\s\\w*',
    '[[:alpha:]]+',
    '[(?<x]',
    '[\\]]',
    '\\bword\\b',
    '\\y',
    '\\q',
    '\\1',
    '(a)\\1',
    '(a)(b)\\2',
    '(a)\\2',
    '\\9',
    '\\x41',
    '\\u0041',
    '\\.\\*\\$',
    '[^]a]',
    'é+',
  ];

  it.each(PATTERNS)('%s', async (pattern) => {
    let javascriptValid = true;
    try {
      new RegExp(pattern);
    } catch {
      javascriptValid = false;
    }
    let postgresError: string | null = null;
    try {
      await sql`select 'x' ~ ${pattern}`.execute(fixture.db);
    } catch (error) {
      postgresError = (error as { code?: string }).code ?? 'error';
    }
    const refused = !javascriptValid || postgresRegexProblem(pattern) !== null;
    // Every pattern PostgreSQL refuses is refused first (a 400 naming the field, not a database error).
    if (postgresError !== null) expect(refused, `PostgreSQL refuses ${pattern} (${postgresError})`).toBe(true);
    // The check refuses no pattern both dialects accept.
    if (postgresError === null && javascriptValid) expect(postgresRegexProblem(pattern), pattern).toBeNull();
  });

  it('refuses PostgreSQL-only failures with the field named', () => {
    for (const pattern of ['(?<n>a)', '\\p{L}', 'a{1,100000}']) {
      const error = refusal(() => compileReadQuery(fixture.schema, 'articles', { filter: { title: { _regex: pattern } } }, { accountability: null }));
      expect(error.extensions.field).toBe('title');
      expect(error.message).toContain('PostgreSQL regular expression');
    }
  });
});

describe('filters nested deeper than 64 levels, whatever their source', () => {
  const nested = (depth: number): Filter => {
    let filter: Filter = { status: { _eq: 'published' } };
    for (let i = 0; i < depth; i++) filter = { _and: [filter] };
    return filter;
  };

  it('a stored permission rule (a read policy) 10,000 deep is 400 INVALID_QUERY, not a stack overflow', async () => {
    const policy: ReadPolicy = { itemFilter: (collection) => (collection === 'articles' ? nested(10_000) : null), allowedFields: () => '*' };
    await expect(readByQuery(fixture.db, fixture.schema, 'articles', { fields: ['id'] }, { accountability: null, policy })).rejects.toMatchObject({
      code: 'INVALID_QUERY',
      extensions: { field: 'filter' },
    });
  });

  it('a rule 30 deep still works', async () => {
    const policy: ReadPolicy = { itemFilter: (collection) => (collection === 'articles' ? nested(30) : null), allowedFields: () => '*' };
    const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', { fields: ['id'], sort: ['id'] }, { accountability: null, policy });
    expect(data.map((item) => item.id)).toEqual([1, 2, 4]);
  });

  it('a filter built in code (not parsed) 10,000 deep is refused by the compiler too', () => {
    const error = refusal(() => compileReadQuery(fixture.schema, 'articles', { filter: nested(10_000) }, { accountability: null }));
    expect(error.message).toMatch(/nests deeper than 64 levels/);
  });
});

describe('_in and _nin bind one array parameter', () => {
  it('70,000 values are one parameter and select the right rows', async () => {
    const values = [...Array.from({ length: 70_000 }, (_, i) => i + 100), 2, 4];
    const { statement } = compileReadQuery(fixture.schema, 'articles', { fields: ['id'], filter: { rating: { _in: values } } }, { accountability: null });
    const compiled = statement.compile(fixture.db);
    expect(compiled.parameters.length).toBeLessThan(10);
    expect(compiled.sql).toContain('= any(');
    // Ratings: 1 → 5, 2 → 3, 3 → null, 4 → 4, 5 → 1.
    expect(await ids({ rating: { _in: values } })).toEqual([4]);
    expect(await ids({ rating: { _nin: values } })).toEqual([1, 2, 5]);
  });

  it.each([
    [{ uid: { _in: [FIXTURE_IDS.articleUid] } }, [1]],
    [{ published_on: { _in: ['2024-01-15', '2024-01-20'] } }, [1, 4]],
    [{ published_at: { _in: ['2024-01-15T10:30:00Z'] } }, [1]],
    [{ price: { _in: ['10.50', 0.99] } }, [1, 5]],
    [{ score: { _nin: [4.5, 2.25] } }, [4, 5]],
    [{ views: { _in: ['9007199254740993'] } }, [1]],
    [{ status: { _in: 'draft,archived' } }, [3, 5]],
    [{ title: { _in: ['Hello World', null] } }, [1]],
    [{ title: { _in: [null] } }, []],
    [{ title: { _nin: [] } }, [1, 2, 3, 4, 5]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('lists with a $CURRENT_USER.<field> subquery keep working', async () => {
    const { data } = await readByQuery(fixture.db, fixture.schema, 'authors', { fields: ['id'], filter: { name: { _in: ['$CURRENT_USER.first_name', 'nobody'] } } }, { accountability: ada });
    expect(data).toEqual([{ id: 1 }]);
  });

  it('a statement over 65,535 values is 400 naming filter', async () => {
    const filter = { _or: Array.from({ length: 66_000 }, (_, i) => ({ rating: { _eq: i } })) };
    await expect(ids(filter)).rejects.toMatchObject({ code: 'INVALID_QUERY', extensions: { field: 'filter' } });
  });
});

describe('dynamic values and dates', () => {
  it('$CURRENT_USER.<field> of another type than the target is 400 naming the target', () => {
    const cases: Array<[string, string]> = [
      ['rating', '$CURRENT_USER.email'],
      ['published_on', '$CURRENT_USER.first_name'],
      ['uid', '$CURRENT_USER.email'],
      ['title', '$CURRENT_USER.role'],
    ];
    for (const [field, variable] of cases) {
      const error = refusal(() => compileReadQuery(fixture.schema, 'articles', { filter: { [field]: { _eq: variable } } }, { accountability: ada }));
      expect(error.extensions.field).toBe(field);
    }
  });

  it('$CURRENT_USER.<field> of the same kind works', async () => {
    const { data } = await readByQuery(fixture.db, fixture.schema, 'authors', { fields: ['id'], filter: { owner: { _eq: '$CURRENT_USER.id' } } }, { accountability: ada });
    expect(data).toEqual([{ id: 1 }]);
  });

  it('refuses year 0 and $NOW offsets beyond the years 1 to 9999', () => {
    expect(() => castValue('0000-01-01', 'date', 'born')).toThrow(/born/);
    expect(() => castValue('0000-06-01T00:00:00Z', 'timestamp', 'at')).toThrow(/at/);
    expect(castValue('0001-01-01', 'date', 'born')).toBe('0001-01-01');
    for (const value of ['$NOW(-99999999999 year)', '$NOW(+8000 year)', '$NOW(-3000 year)', '$NOW(99999999999999999999 second)']) {
      const error = refusal(() => compileReadQuery(fixture.schema, 'articles', { filter: { published_at: { _gt: value } } }, { accountability: null }));
      expect(error.extensions.field).toBe('published_at');
    }
  });
});

describe('paging', () => {
  it('refuses a page whose offset overflows, naming page', () => {
    const error = refusal(() => resolvePage({ page: 9_007_199_254_740_991, limit: 10_000 }, null));
    expect(error.extensions.field).toBe('page');
    expect(refusal(() => resolvePage({ page: 2 ** 40, limit: 2 ** 20 }, null, 'deep.comments.')).extensions.field).toBe('deep.comments.page');
    expect(resolvePage({ page: 3, limit: 10 }, null)).toEqual({ limit: 10, offset: 20 });
  });

  it('answers the largest representable offset with an empty page', async () => {
    const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery('offset=9007199254740991'), { accountability: null });
    expect(data).toEqual([]);
  });
});
