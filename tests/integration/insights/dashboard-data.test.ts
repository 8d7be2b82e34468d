import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsightsFixture, type InsightsFixture } from './insights-fixture.ts';

let f: InsightsFixture;
beforeAll(async () => {
  f = await openInsightsFixture();
});
afterAll(() => f.t.close());

describe('GET /dashboards/:id/data', () => {
  it('answers every panel type in one request', async () => {
    const { id, panels } = await f.dashboard([
      { type: 'metric', options: { collection: 'articles', field: 'views', function: 'sum', prefix: '' } },
      { type: 'meter', options: { collection: 'articles', field: 'id', function: 'count', goal: 10 } },
      { type: 'bar-chart', options: { collection: 'articles', xAxis: 'status', yAxis: 'views', function: 'avg' } },
      { type: 'pie-chart', options: { collection: 'articles', column: 'author', function: 'count' } },
      { type: 'list', options: { collection: 'articles', displayTemplate: '{{title}} – {{author.name}}', sortField: 'views', sortDirection: 'desc', limit: 2 } },
      { type: 'label', options: { text: '# Hello' } },
      { type: 'global-variable', options: { field: 'state', type: 'string', defaultValue: 'published' } },
      { type: 'relational-variable', options: { field: 'writer', collection: 'authors', displayTemplate: '{{name}}' } },
      { type: 'time-series', options: { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', precision: 'month', range: 'auto' } },
      { type: 'metric', options: { collection: 'articles', field: 'price', function: 'sum', filter: { status: { _eq: '{{ state }}' } } } },
    ]);
    const data = await f.data(id, f.admin);
    expect(data[panels[0]!]).toEqual({ value: 150 });
    expect(data[panels[1]!]).toEqual({ value: 5, goal: 10 });
    expect(data[panels[2]!]).toEqual({ groups: [{ key: 'draft', value: 45 }, { key: 'published', value: 20 }] });
    expect(data[panels[3]!]).toEqual({ groups: [{ key: 1, value: 2 }, { key: 2, value: 2 }, { key: null, value: 1 }] });
    expect(data[panels[4]!]).toEqual({ items: [{ id: 5, title: 'Epsilon', author: null }, { id: 4, title: 'Delta', author: { name: 'Bruno' } }] });
    expect(data[panels[5]!]).toEqual({});
    expect(data[panels[6]!]).toEqual({});
    expect(data[panels[7]!]).toEqual({ items: [{ id: 1, name: 'Ana' }, { id: 2, name: 'Bruno' }] });
    expect(data[panels[8]!]).toEqual({ buckets: ['2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'], series: [{ name: null, values: [2, 3] }] });
    expect(data[panels[9]!]).toEqual({ value: 6.75 });
    expect((await f.data(id, f.admin, { variables: JSON.stringify({ state: 'draft' }) }))[panels[9]!]).toEqual({ value: 4 });
  });
});
