import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsightsFixture, type InsightsFixture } from './insights-fixture.ts';

let f: InsightsFixture;
beforeAll(async () => {
  f = await openInsightsFixture({ PROJECT_TIME_ZONE: 'America/Sao_Paulo' });
});
afterAll(() => f.t.close());

const dashboardRead = [
  { collection: 'tessera_dashboards', action: 'read', fields: '*' },
  { collection: 'tessera_panels', action: 'read', fields: '*' },
];

describe('permissions', () => {
  it('answers FORBIDDEN for a collection the role may not read while the other panels answer, and aggregates only the rows its rule allows', async () => {
    const { id, panels } = await f.dashboard([
      { type: 'metric', options: { collection: 'articles', field: 'id', function: 'count' } },
      { type: 'metric', options: { collection: 'authors', field: 'id', function: 'count' } },
      { type: 'pie-chart', options: { collection: 'articles', column: 'status', function: 'count' } },
      { type: 'list', options: { collection: 'articles', displayTemplate: '{{title}}', sortField: 'title', sortDirection: 'asc' } },
    ]);
    const reader = await f.userWithPermissions('Reader', [...dashboardRead, { collection: 'articles', action: 'read', fields: '*', permissions: { status: { _eq: 'published' } } }]);
    const data = await f.data(id, reader);
    expect(data[panels[0]!]).toEqual({ value: 3 });
    expect(data[panels[1]!].error.code).toBe('FORBIDDEN');
    expect(data[panels[2]!]).toEqual({ groups: [{ key: 'published', value: 3 }] });
    expect(data[panels[3]!].items.map((item: { title: string }) => item.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect((await f.data(id, f.admin))[panels[0]!]).toEqual({ value: 5 });
  });

  it('refuses aggregating a field outside the allowed fields', async () => {
    const { id, panels } = await f.dashboard([{ type: 'metric', options: { collection: 'articles', field: 'views', function: 'sum' } }]);
    const narrow = await f.userWithPermissions('Narrow', [...dashboardRead, { collection: 'articles', action: 'read', fields: 'id,title' }]);
    expect((await f.data(id, narrow))[panels[0]!].error.code).toBe('FORBIDDEN');
  });

  it('is 403 for the whole dashboard when the role cannot read dashboards, and applies the same rules to previews', async () => {
    const { id } = await f.dashboard([{ type: 'label', options: { text: 'hi' } }]);
    const outsider = await f.userWithPermissions('Outsider', [{ collection: 'articles', action: 'read', fields: '*', permissions: { status: { _eq: 'draft' } } }]);
    await f.t.request.get(`/dashboards/${id}/data`).set(f.auth(outsider)).expect(403);
    const preview = await f.t.request.post('/panels/preview').set(f.auth(outsider)).send({ type: 'metric', options: { collection: 'articles', field: 'views', function: 'sum' } }).expect(200);
    expect(preview.body.data).toEqual({ value: 90 });
    const hidden = await f.t.request.post('/panels/preview').set(f.auth(outsider)).send({ type: 'metric', options: { collection: 'authors', field: 'id', function: 'count' } }).expect(200);
    expect(hidden.body.data.error.code).toBe('FORBIDDEN');
    const anonymous = await f.t.request.post('/panels/preview').send({ type: 'metric', options: { collection: 'articles', field: 'id', function: 'count' } }).expect(200);
    expect(anonymous.body.data.error.code).toBe('FORBIDDEN');
  });
});

describe('project time zone America/Sao_Paulo', () => {
  it('puts an item at 01:00 UTC on the 1st into the previous day and month', async () => {
    const options = { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', range: 'auto' };
    const { id, panels } = await f.dashboard([
      { type: 'time-series', options: { ...options, precision: 'month' } },
      { type: 'time-series', options: { ...options, precision: 'day', filter: { published_at: { _gte: '2026-10-31T00:00:00Z' } } } },
      { type: 'time-series', options: { ...options, precision: 'week' } },
    ]);
    const data = await f.data(id, f.admin);
    // UTC would say October 2, November 3; in São Paulo Gamma (01:00 UTC on 1 November) is still October.
    expect(data[panels[0]!]).toEqual({ buckets: ['2026-10-01T00:00:00-03:00', '2026-11-01T00:00:00-03:00'], series: [{ name: null, values: [3, 2] }] });
    expect(data[panels[1]!]).toEqual({
      buckets: ['2026-10-31T00:00:00-03:00', '2026-11-01T00:00:00-03:00', '2026-11-02T00:00:00-03:00', '2026-11-03T00:00:00-03:00'],
      series: [{ name: null, values: [2, 1, 0, 1] }],
    });
    // ISO weeks start on Monday: 12 Oct, 26 Oct (Beta, Gamma, Delta on Sun 1 Nov), 2 Nov (Epsilon).
    expect(data[panels[2]!].buckets).toEqual(['2026-10-12T00:00:00-03:00', '2026-10-19T00:00:00-03:00', '2026-10-26T00:00:00-03:00', '2026-11-02T00:00:00-03:00']);
    expect(data[panels[2]!].series).toEqual([{ name: null, values: [1, 0, 3, 1] }]);
    expect((await f.t.request.get('/server/info').expect(200)).body.data.project.time_zone).toBe('America/Sao_Paulo');
  });
});
