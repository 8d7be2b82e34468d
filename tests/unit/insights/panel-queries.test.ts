import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { PanelContext } from '../../../server/insights/panel-context.ts';
import { validatePanelOptions, type PanelType } from '../../../server/insights/panel-options.ts';
import { PANEL_QUERIES } from '../../../server/insights/panel-registry.ts';
import type { Query } from '../../../server/query/types.ts';
import { fixtureSchema } from '../../helpers/schema-fixture.ts';

/**
 * The items query each panel type builds, recorded on its way to the read path (the integration tests in
 * tests/integration/insights run the same queries against PostgreSQL and check the results).
 */
async function queriesOf(type: PanelType, options: Record<string, unknown>, variables: Record<string, unknown> = {}, answer: Record<string, unknown>[] = []): Promise<Array<[string, Query, number?]>> {
  const reads: Array<[string, Query, number?]> = [];
  const context: PanelContext = {
    read: async (collection, query, rows) => {
      reads.push(rows === undefined ? [collection, query] : [collection, query, rows]);
      return { data: reads.length === 1 ? answer : [] };
    },
    schema: fixtureSchema(),
    timeZone: 'America/Sao_Paulo',
    now: DateTime.fromISO('2026-11-20T15:00:00Z').setZone('America/Sao_Paulo'),
    variables,
  };
  await PANEL_QUERIES[type](validatePanelOptions(type, options), context);
  return reads;
}

describe('the items query of each panel type', () => {
  it('metric and meter: one aggregate with the filter, variables substituted', async () => {
    expect(await queriesOf('metric', { collection: 'articles', field: 'rating', function: 'avg', filter: { status: { _eq: '{{ state }}' } } }, { state: 'published' })).toEqual([
      ['articles', { aggregate: { avg: ['rating'] }, filter: { status: { _eq: 'published' } } }],
    ]);
    expect(await queriesOf('meter', { collection: 'articles', field: 'id', function: 'count', goal: 3, filter: { status: { _eq: '{{ state }}' } } })).toEqual([
      ['articles', { aggregate: { count: ['id'] }, filter: undefined }],
    ]);
  });

  it('time-series: the top groups first, then date parts plus groupBy within the range (a half-open filter in the zone), read in full', async () => {
    const options = { collection: 'articles', function: 'sum', valueField: 'rating', dateField: 'published_at', precision: 'week', range: '2 weeks', groupBy: 'status', filter: { rating: { _gt: 1 } } };
    const within = { published_at: { _gte: '2026-11-02T00:00:00.000-03:00', _lt: '2026-11-23T00:00:00.000-03:00' } };
    const reads = await queriesOf('time-series', options, {}, [{ status: 'published' }, { status: null }]);
    expect(reads).toEqual([
      ['articles', { aggregate: { sum: ['rating'] }, groupBy: ['status'], filter: { _and: [{ rating: { _gt: 1 } }, within] }, sort: ['-sum.rating', 'status'], limit: 10 }, 10],
      [
        'articles',
        {
          aggregate: { sum: ['rating'] },
          groupBy: ['isoyear(published_at)', 'week(published_at)', 'status'],
          filter: { _and: [{ rating: { _gt: 1 } }, within, { _or: [{ status: { _in: ['published'] } }, { status: { _null: true } }] }] },
          limit: 6,
        },
        6,
      ],
    ]);
    // No group in the range: no series, and no second read.
    expect(await queriesOf('time-series', options)).toHaveLength(1);
  });

  it('time-series over a date field filters with calendar dates; range auto asks for the span first', async () => {
    const reads = await queriesOf('time-series', { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_on', precision: 'month', range: 'auto' });
    expect(reads).toEqual([['articles', { aggregate: { min: ['published_on'], max: ['published_on'] }, filter: undefined }]]);
    const [[, query]] = (await queriesOf('time-series', { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_on', precision: 'month', range: '3 months' })) as [[string, Query]];
    expect(query.groupBy).toEqual(['year(published_on)', 'month(published_on)']);
    expect(query.filter).toEqual({ _and: [{ published_on: { _gte: '2026-08-01', _lt: '2026-12-01' } }] });
    expect(query.limit).toBe(4);
  });

  it('bar-chart in axis order, pie-chart largest first (count without valueField counts items)', async () => {
    expect(await queriesOf('bar-chart', { collection: 'articles', xAxis: 'author', yAxis: 'rating', function: 'max', limit: 5 })).toEqual([
      ['articles', { aggregate: { max: ['rating'] }, groupBy: ['author'], filter: undefined, sort: ['author'], limit: 5 }, 5],
    ]);
    expect(await queriesOf('pie-chart', { collection: 'articles', column: 'status', function: 'count' })).toEqual([
      ['articles', { aggregate: { count: ['*'] }, groupBy: ['status'], filter: undefined, sort: ['-count', 'status'], limit: 100 }, 100],
    ]);
    expect((await queriesOf('pie-chart', { collection: 'articles', column: 'status', function: 'sum', valueField: 'rating' }))[0]![1].sort).toEqual(['-sum.rating', 'status']);
  });

  it('list and relational-variable: the primary key and the template fields', async () => {
    expect(await queriesOf('list', { collection: 'articles', displayTemplate: '{{ title }} by {{author.name}}', sortField: 'rating' })).toEqual([
      ['articles', { fields: ['id', 'title', 'author.name'], filter: undefined, sort: ['-rating'], limit: 5 }, 5],
    ]);
    expect(await queriesOf('relational-variable', { field: 'writer', collection: 'authors', displayTemplate: '{{name}}', limit: 20 })).toEqual([
      ['authors', { fields: ['id', 'name'], filter: undefined, limit: 20 }, 20],
    ]);
  });

  it('label and global-variable read nothing', async () => {
    expect(await queriesOf('label', { text: 'x' })).toEqual([]);
    expect(await queriesOf('global-variable', { field: 'x', type: 'string' })).toEqual([]);
  });
});
