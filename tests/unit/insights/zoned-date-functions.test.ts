import { describe, expect, it } from 'vitest';
import { compileAggregateQuery } from '../../../server/query/compile-aggregate.ts';
import { InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { fixtureSchema } from '../../helpers/schema-fixture.ts';
import { sqlCompiler } from '../../helpers/sql-compiler.ts';

const schema = fixtureSchema();

function compiled(query: string, timeZone?: string): string {
  return compileAggregateQuery(schema, 'articles', parseQuery(query), { accountability: null, timeZone }).statement.compile(sqlCompiler).sql;
}

describe('date functions in a time zone', () => {
  it('takes timestamp parts in UTC unless the read names a zone', () => {
    expect(compiled('aggregate[count]=*&groupBy=year(published_at)')).toContain(`date_part('year', ("t0"."published_at" at time zone 'UTC'))`);
    expect(compiled('aggregate[count]=*&groupBy=year(published_at)', 'America/Sao_Paulo')).toContain(`date_part('year', ("t0"."published_at" at time zone 'America/Sao_Paulo'))`);
  });

  it('writes the zone as the same literal in SELECT, GROUP BY and ORDER BY (bound parameters would differ and fail to group)', () => {
    const sql = compiled('aggregate[count]=*&groupBy=day(published_at)', 'Europe/Lisbon');
    expect(sql.match(/at time zone 'Europe\/Lisbon'/g)).toHaveLength(3);
    expect(sql).not.toMatch(/at time zone \$\d/);
  });

  it('leaves wall-clock (dateTime) and date fields as they are', () => {
    expect(compiled('aggregate[count]=*&groupBy=month(local_at)', 'Asia/Tokyo')).toContain(`date_part('month', "t0"."local_at")`);
    expect(compiled('aggregate[count]=*&groupBy=month(published_on)', 'Asia/Tokyo')).toContain(`date_part('month', "t0"."published_on")`);
  });

  it('knows isoyear, the year an ISO week belongs to', () => {
    expect(compiled('aggregate[count]=*&groupBy=isoyear(published_at),week(published_at)', 'UTC')).toMatch(/date_part\('isoyear', .*date_part\('week', /);
  });

  it.each(["UTC'; drop table x; --", 'Not/AZone', '', '../etc'])('refuses %j as a zone before any SQL is built', (zone) => {
    expect(() => compiled('aggregate[count]=*&groupBy=year(published_at)', zone)).toThrow(InvalidQueryError);
  });
});
