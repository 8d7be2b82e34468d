import { describe, expect, it } from 'vitest';
import { collectionsNamed, writesOf } from '../../../server/cache/touched-tables.ts';

const tables = new Set(['articles', 'authors', 'tessera_versions', 'weird"name']);

describe('collectionsNamed', () => {
  it('finds every table a read names, quoted or bare, in joins and subqueries', () => {
    const text = 'select (select json_agg(x) from "authors" as "a0" where "a0"."id" = t."author") from "articles" t where exists (select 1 from tessera_versions)';
    expect(collectionsNamed([text], tables)).toEqual(new Set(['articles', 'authors', 'tessera_versions']));
  });
  it('understands doubled quotes in identifiers', () => {
    expect(collectionsNamed(['select * from "weird""name"'], tables)).toEqual(new Set(['weird"name']));
  });
});

describe('writesOf', () => {
  it('names the collections of row writes and ignores reads', () => {
    const statements = ['select * from "authors"', 'update "articles" set "title" = $1 where "id" = $2', 'insert into "tessera_versions" ("id") values ($1)'];
    expect(writesOf(statements, tables)).toEqual({ all: false, collections: new Set(['articles', 'tessera_versions']) });
  });
  it('sees writes inside a CTE', () => {
    expect(writesOf(['with moved as (delete from "authors" returning *) select count(*) from moved'], tables).collections).toEqual(new Set(['authors']));
  });
  it('treats DDL and TRUNCATE as a change of everything', () => {
    expect(writesOf(['alter table "articles" add column "x" text'], tables).all).toBe(true);
    expect(writesOf(['truncate "authors"'], tables).all).toBe(true);
  });
  it('purges everything when a write happened but the schema is unknown', () => {
    expect(writesOf(['update "articles" set "x" = 1'], null).all).toBe(true);
    expect(writesOf(['select 1'], null).all).toBe(false);
  });
});
