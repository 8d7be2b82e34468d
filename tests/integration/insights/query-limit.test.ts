import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsightsFixture, type InsightsFixture } from './insights-fixture.ts';

let f: InsightsFixture;
beforeAll(async () => {
  f = await openInsightsFixture({ QUERY_LIMIT_MAX: '2' });
});
afterAll(() => f.t.close());

describe('QUERY_LIMIT_MAX below what a panel reads', () => {
  it('still reads every bucket of every series and the whole list (the panel bounds its own rows)', async () => {
    const { id, panels } = await f.dashboard([
      { type: 'time-series', options: { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', precision: 'day', range: 'auto', groupBy: 'status' } },
      { type: 'list', options: { collection: 'articles', displayTemplate: '{{title}}', limit: 5 } },
    ]);
    const data = await f.data(id, f.admin);
    const series = data[panels[0]!].series as Array<{ name: string; values: number[] }>;
    expect(data[panels[0]!].buckets).toHaveLength(20);
    expect(series.map((item) => item.name)).toEqual(['published', 'draft']);
    expect(series.map((item) => item.values.reduce((sum, value) => sum + value, 0))).toEqual([3, 2]);
    // Panel limits are bounded by the options (list ≤ 100, groups ≤ 1000), not by the API cap.
    expect(data[panels[1]!].items).toHaveLength(5);
  });
});
