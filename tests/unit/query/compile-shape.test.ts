import { describe, expect, it } from 'vitest';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { fixtureSchema } from '../../helpers/schema-fixture.ts';
import { sqlCompiler } from '../../helpers/sql-compiler.ts';

const schema = fixtureSchema();
const compiler = sqlCompiler;

function compiled(query: string, asText = false): string {
  return compileReadQuery(schema, 'articles', parseQuery(query), { accountability: null, asText }).statement.compile(compiler).sql;
}

describe('the shape of a compiled read', () => {
  it.each(['', 'sort=id', 'sort=-id', 'filter[status][_eq]=published', 'search=x&meta=total_count', 'meta=filter_count'])('orders "%s" by the key in one SELECT, without a page join', (query) => {
    const sql = compiled(query);
    expect(sql).not.toContain('as page on');
    expect(sql).toMatch(/order by "t0"\."id" (asc|desc) limit \$\d+$/);
  });

  it.each(['sort=title', 'sort=-rating', 'sort=author.name', 'sort=title&meta=filter_count'])('chooses the page on keys first for "%s", then builds JSON for its rows', (query) => {
    expect(compiled(query)).toContain('as page on');
  });

  // An offset page built in the SELECT that skips would build JSON for every skipped row (issue 36 item 4).
  it.each(['offset=100', 'page=3&limit=25', 'sort=-id&offset=5', 'sort=title&offset=5'])('skips the rows of "%s" in a subquery, before any JSON is built', (query) => {
    const sql = compiled(query);
    expect(sql).toMatch(/ offset \$\d+\) as "?(page|t\d+)"?/);
    expect(sql).not.toMatch(/offset \$\d+$/);
  });

  // A window count would make PostgreSQL read and sort every matching row before the LIMIT (issue 36 item 4).
  it.each(['meta=filter_count', 'sort=title&meta=filter_count', 'sort=-published_on&filter[status][_eq]=x&meta=filter_count'])('counts "%s" in a scalar subquery, never a window', (query) => {
    const sql = compiled(query);
    expect(sql).not.toMatch(/over \(\)/);
    expect(sql).toMatch(/\(select count\(\*\) from "articles" as "t\d+" where [^)]*\) as filter_count/);
  });

  it('numbers no child rows: related lists aggregate in their sort order', () => {
    const sql = compiled('fields=id,comments.id&deep[comments][_sort]=-id&deep[comments][_limit]=2');
    expect(sql).not.toContain('row_number()');
    expect(sql).toMatch(/json_agg\("t\d+"\."d" order by "t\d+"\."s0" desc\)/);
  });

  it('sorts through a one-to-many path by one correlated value per item, never by a join that repeats items', () => {
    const ascending = compiled('sort=tags.tags_id.name');
    expect(ascending).toMatch(/\(select min\("t\d+"\."name"\) from "articles_tags" as "t\d+" left join lateral/);
    expect(ascending).toMatch(/where "t\d+"\."articles_id" = "t0"\."id"\) asc/);
    expect(compiled('sort=-comments.body')).toMatch(/\(select max\("t\d+"\."body"\) from "comments" as "t\d+" where "t\d+"\."article" = "t0"\."id"\) desc/);
  });

  it('casts each item to text when the response passes it through', () => {
    expect(compiled('', true)).toMatch(/::text as data/);
    expect(compiled('')).not.toMatch(/::text as data/);
  });
});
