import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import { sql } from 'kysely';
import { collection, field, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

/** Ids of the rows of `collection` a filter (JSON) selects, in id order. */
async function ids(filter: object, collection = 'articles'): Promise<unknown[]> {
  const query = { fields: ['id'], filter: filter as never, sort: ['id'] };
  const { data } = await readByQuery(fixture.db, fixture.schema, collection, query, { accountability: null });
  return data.map((item) => item.id);
}

async function failure(filter: object, collection = 'articles'): Promise<unknown> {
  return ids(filter, collection).then(
    () => new Error('expected the filter to be refused'),
    (caught: unknown) => caught,
  );
}

// Titles: 1 'Hello World', 2 'Second Post', 3 'Draft idea', 4 'Hidden gem', 5 '100% off_sale'.
describe('negated case-insensitive operators (Directus 10)', () => {
  it.each([
    [{ title: { _nicontains: 'HELLO' } }, [2, 3, 4, 5]],
    [{ title: { _nicontains: 'o' } }, [3, 4]],
    [{ title: { _nistarts_with: 'h' } }, [2, 3, 5]],
    [{ title: { _nistarts_with: 'HID' } }, [1, 2, 3, 5]],
    [{ title: { _niends_with: 'POST' } }, [1, 3, 4, 5]],
    [{ title: { _niends_with: 'F_SALE' } }, [1, 2, 3, 4]],
    [{ body: { _nistarts_with: 'first' } }, [2, 3, 4]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('escapes LIKE wildcards in the value', async () => {
    expect(await ids({ title: { _nistarts_with: '_' } })).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ title: { _niends_with: '%' } })).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes them only on text-like fields', async () => {
    expect(await failure({ rating: { _nistarts_with: '1' } })).toMatchObject({ status: 400, extensions: { field: 'rating' } });
  });
});

describe('geometry operators', () => {
  it.each(['_intersects', '_nintersects', '_intersects_bbox', '_nintersects_bbox'])('%s is 400 naming the operator and the field', async (operator) => {
    const error = await failure({ title: { [operator]: { type: 'Point', coordinates: [0, 0] } } });
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect(error).toMatchObject({ status: 400, extensions: { field: 'title' } });
    expect((error as Error).message).toContain(`${operator} is only for geometry fields`);
    expect((error as Error).message).toContain('"title"');
  });
});

// keywords (csv): 1 'red,green', 2 'blue', 3 '', 4 null, 5 null.
describe('csv fields filter on their stored comma-joined text', () => {
  it.each([
    [{ keywords: { _eq: 'red,green' } }, [1]],
    [{ keywords: { _eq: ['red', 'green'] } }, [1]],
    [{ keywords: { _eq: 'red' } }, []],
    [{ keywords: { _neq: 'blue' } }, [1, 3]],
    [{ keywords: { _neq: ['red', 'green'] } }, [2, 3]],
    [{ keywords: { _in: ['red,green', 'blue'] } }, [1, 2]],
    [{ keywords: { _in: 'red,blue' } }, [2]],
    [{ keywords: { _nin: ['blue'] } }, [1, 3]],
    [{ keywords: { _contains: 'd,g' } }, [1]],
    [{ keywords: { _contains: ['d', 'g'] } }, [1]],
    [{ keywords: { _ncontains: ',' } }, [2, 3]],
    [{ keywords: { _icontains: 'GREEN' } }, [1]],
    [{ keywords: { _nicontains: 'RED' } }, [2, 3]],
    [{ keywords: { _starts_with: 'red,' } }, [1]],
    [{ keywords: { _istarts_with: 'RED,G' } }, [1]],
    [{ keywords: { _nstarts_with: 'red' } }, [2, 3]],
    [{ keywords: { _nistarts_with: 'BL' } }, [1, 3]],
    [{ keywords: { _ends_with: ',green' } }, [1]],
    [{ keywords: { _iends_with: 'UE' } }, [2]],
    [{ keywords: { _nends_with: 'n' } }, [2, 3]],
    [{ keywords: { _niends_with: 'N' } }, [2, 3]],
    [{ keywords: { _regex: '^red,' } }, [1]],
    [{ keywords: { _empty: true } }, [3, 4, 5]],
    [{ keywords: { _null: true } }, [4, 5]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('still reads csv as a list', async () => {
    const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', { fields: ['keywords'], filter: { id: { _eq: 1 } } }, { accountability: null });
    expect(data).toEqual([{ keywords: ['red', 'green'] }]);
  });

  it('refuses a list holding non-strings with 400 naming the field', async () => {
    expect(await failure({ keywords: { _eq: [{ a: 1 }] } })).toMatchObject({ status: 400, extensions: { field: 'keywords' } });
  });
});

describe('csv held in a PostgreSQL array column', () => {
  it('filters on the same comma-joined text and reads as a list', async () => {
    await sql`create table csv_arrays (id serial primary key, tags text[])`.execute(fixture.db);
    await sql`insert into csv_arrays (tags) values (array['red','green']), (array['blue']), (null)`.execute(fixture.db);
    const table = collection('csv_arrays', [field('id', 'integer'), field('tags', 'csv', { dbType: 'ARRAY' })]);
    const schema = { ...fixture.schema, collections: { ...fixture.schema.collections, csv_arrays: table } };
    const read = async (filter: object) => {
      const { data } = await readByQuery(fixture.db, schema, 'csv_arrays', { fields: ['id', 'tags'], filter: filter as never, sort: ['id'] }, { accountability: null });
      return data;
    };
    expect(await read({ tags: { _eq: ['red', 'green'] } })).toEqual([{ id: 1, tags: ['red', 'green'] }]);
    expect(await read({ tags: { _in: ['blue', 'red'] } })).toEqual([{ id: 2, tags: ['blue'] }]);
    expect((await read({ tags: { _icontains: 'D,G' } })).map((row) => row.id)).toEqual([1]);
    expect((await read({ tags: { _niends_with: 'UE' } })).map((row) => row.id)).toEqual([1]);
    expect((await read({ tags: { _empty: true } })).map((row) => row.id)).toEqual([3]);
  });
});

describe('concealed and hashed fields', () => {
  it.each([
    [{ secret: { _null: true } }, [2, 4, 5]],
    [{ secret: { _nnull: true } }, [1, 3]],
    [{ secret: { _null: false } }, [1, 3]],
    [{ secret: { _nnull: false, _null: true } }, [2, 4, 5]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('takes _null / _nnull on a hash', async () => {
    expect(await ids({ password: { _nnull: true } }, 'tessera_users')).toHaveLength(1);
    expect(await ids({ password: { _null: true } }, 'tessera_users')).toEqual([]);
  });

  it.each([
    [{ secret: { _eq: 'SECRET-ONE' } }, 'articles', 'secret'],
    [{ secret: { _null: false, _starts_with: 'S' } }, 'articles', 'secret'],
    [{ secret: { _empty: false } }, 'articles', 'secret'],
    [{ password: { _nnull: true, _eq: 'argon2-hash' } }, 'tessera_users', 'password'],
    [{ password: { _contains: 'argon' } }, 'tessera_users', 'password'],
  ])('still refuses %j with a 400', async (filter, collection, field) => {
    const error = await failure(filter, collection);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect(error).toMatchObject({ extensions: { field } });
  });
});
