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

describe('panel results', () => {
  it('groups a time series by a field, one series per value, gap-filled', async () => {
    const { id, panels } = await f.dashboard([
      { type: 'time-series', options: { collection: 'articles', function: 'sum', valueField: 'views', dateField: 'published_at', precision: 'day', range: 'auto', groupBy: 'status' } },
    ]);
    const result = (await f.data(id, f.admin))[panels[0]!];
    expect(result.buckets).toEqual(['2026-10-15T00:00:00+00:00', ...Array.from({ length: 19 }, (_, day) => `2026-10-${String(16 + day).padStart(2, '0')}T00:00:00+00:00`).slice(0, 16), '2026-11-01T00:00:00+00:00', '2026-11-02T00:00:00+00:00', '2026-11-03T00:00:00+00:00']);
    const byName = Object.fromEntries(result.series.map((series: { name: string; values: number[] }) => [series.name, series.values]));
    expect(Object.keys(byName).sort()).toEqual(['draft', 'published']);
    const at = (day: string) => result.buckets.indexOf(`${day}T00:00:00+00:00`);
    expect(byName.published[at('2026-10-15')]).toBe(10);
    expect(byName.published[at('2026-10-31')]).toBe(20);
    expect(byName.published[at('2026-11-01')]).toBe(30);
    expect(byName.draft[at('2026-11-01')]).toBe(40);
    expect(byName.draft[at('2026-11-03')]).toBe(50);
    expect(byName.draft[at('2026-10-20')]).toBe(0);
  });

  it('counts a relative range up to now, empty buckets as zero, averages as null', async () => {
    const now = new Date();
    const yesterday = new Date(now.getTime() - 24 * 3600_000).toISOString();
    await f.t.request.post('/items/articles').set(f.auth(f.admin)).send([{ title: 'Recent', status: 'recent', views: 7, published_at: yesterday }]).expect(200);
    const { id, panels } = await f.dashboard([
      { type: 'time-series', options: { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', precision: 'day', range: '3 days', filter: { status: { _eq: 'recent' } } } },
      { type: 'time-series', options: { collection: 'articles', function: 'avg', valueField: 'views', dateField: 'published_at', precision: 'day', range: '3 days', filter: { status: { _eq: 'recent' } } } },
    ]);
    const data = await f.data(id, f.admin);
    expect(data[panels[0]!].buckets).toHaveLength(4);
    expect(data[panels[0]!].series).toEqual([{ name: null, values: [0, 0, 1, 0] }]);
    expect(data[panels[1]!].series).toEqual([{ name: null, values: [null, null, 7, null] }]);
    // ?range= replaces the panels' own range.
    expect((await f.data(id, f.admin, { range: '1 day' }))[panels[0]!].series).toEqual([{ name: null, values: [1, 0] }]);
    await f.t.request.delete('/items/articles').set(f.auth(f.admin)).send({ query: { filter: { status: { _eq: 'recent' } } } }).expect(204);
  });

  it('isolates a failing panel: a gone field or collection answers an error object, the others their data', async () => {
    const { id, panels } = await f.dashboard([
      { type: 'metric', options: { collection: 'articles', field: 'views', function: 'max' } },
      { type: 'metric', options: { collection: 'articles', field: 'no_such_field', function: 'sum' } },
      { type: 'metric', options: { collection: 'gone', field: 'id', function: 'count' } },
      { type: 'metric', options: { collection: 'articles', field: 'title', function: 'max' } },
    ]);
    const data = await f.data(id, f.admin);
    expect(data[panels[0]!]).toEqual({ value: 50 });
    expect(data[panels[1]!].error.code).toMatch(/^(FORBIDDEN|INVALID_QUERY)$/);
    expect(data[panels[2]!].error.code).toBe('FORBIDDEN');
    expect(data[panels[3]!]).toEqual({ error: { code: 'INVALID_QUERY', message: expect.stringContaining('options.field') } });
  });

  it('answers 400 for variables and ranges it cannot use, 403 for a dashboard that is not there', async () => {
    const { id } = await f.dashboard([{ type: 'global-variable', options: { field: 'min', type: 'integer' } }]);
    const notJson = await f.t.request.get(`/dashboards/${id}/data`).query({ variables: '{min:' }).set(f.auth(f.admin)).expect(400);
    expect(notJson.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'variables' });
    const wrongType = await f.t.request.get(`/dashboards/${id}/data`).query({ variables: JSON.stringify({ min: 'ten' }) }).set(f.auth(f.admin)).expect(400);
    expect(wrongType.body.errors[0].extensions.field).toBe('variables.min');
    const piece = await f.t.request.get(`/dashboards/${id}/data`).query({ variables: JSON.stringify({ min: { _gt: 1 } }) }).set(f.auth(f.admin)).expect(400);
    expect(piece.body.errors[0].extensions.field).toBe('variables.min');
    const range = await f.t.request.get(`/dashboards/${id}/data`).query({ range: 'forever' }).set(f.auth(f.admin)).expect(400);
    expect(range.body.errors[0].extensions.field).toBe('range');
    await f.t.request.get('/dashboards/00000000-0000-4000-8000-000000000000/data').set(f.auth(f.admin)).expect(403);
    const malformed = await f.t.request.get('/dashboards/not-a-uuid/data').set(f.auth(f.admin));
    expect([400, 403]).toContain(malformed.status);
  });
});

describe('many panels', () => {
  it('computes a dashboard of more panels than run at once, each keyed by its id', async () => {
    const panels = Array.from({ length: 20 }, (_, index) => ({ type: 'metric', options: { collection: 'articles', field: 'views', function: 'count', filter: { views: { _gte: index * 10 } } } }));
    const { id, panels: ids } = await f.dashboard(panels);
    const data = await f.data(id, f.admin);
    expect(ids.map((panel) => data[panel].value)).toEqual([5, 5, 4, 3, 2, 1, ...Array.from({ length: 14 }, () => 0)]);
  });
});

describe('POST /panels/preview', () => {
  it('computes an unsaved panel with variables', async () => {
    const response = await f.t.request
      .post('/panels/preview')
      .set(f.auth(f.admin))
      .send({ type: 'bar-chart', options: { collection: 'articles', xAxis: 'author', yAxis: 'views', function: 'sum', filter: { status: { _eq: '{{ state }}' } } }, variables: { state: 'published' } })
      .expect(200);
    expect(response.body.data).toEqual({ groups: [{ key: 1, value: 30 }, { key: 2, value: 30 }] });
  });

  it('is 400 naming the option for bad options, and naming type for a bad type', async () => {
    const bad = await f.t.request.post('/panels/preview').set(f.auth(f.admin)).send({ type: 'metric', options: { collection: 'articles', field: 'views', function: 'median' } }).expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'options.function' });
    const type = await f.t.request.post('/panels/preview').set(f.auth(f.admin)).send({ type: 'Spark line', options: {} }).expect(400);
    expect(type.body.errors[0].extensions.field).toBe('type');
    // Any other id is an admin extension's panel: stored as it is, and the server computes nothing for it.
    expect((await f.t.request.post('/panels/preview').set(f.auth(f.admin)).send({ type: 'sparkline', options: { collection: 'articles' } }).expect(200)).body.data).toEqual({});
    const variables = await f.t.request.post('/panels/preview').set(f.auth(f.admin)).send({ type: 'label', options: { text: 'x' }, variables: ['a'] }).expect(400);
    expect(variables.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'variables' });
    await f.t.request.post('/panels/preview').set(f.auth(f.admin)).send([1]).expect(400);
  });
});

describe('panel writes', () => {
  it('validates options on create and update (the stored type is used when only options change)', async () => {
    const { id: dashboard, panels } = await f.dashboard([{ type: 'metric', options: { collection: 'articles', field: 'views', function: 'sum' } }]);
    const base = { dashboard, position_x: 1, position_y: 1, width: 4, height: 4 };
    const created = await f.t.request.post('/panels').set(f.auth(f.admin)).send({ ...base, type: 'list', options: { collection: 'articles', limit: 500, displayTemplate: '{{title}}' } }).expect(400);
    expect(created.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'options.limit' });
    const type = await f.t.request.post('/panels').set(f.auth(f.admin)).send({ ...base, type: 'Gauge', options: {} }).expect(400);
    expect(type.body.errors[0].extensions.field).toBe('type');
    const extensionOptions = await f.t.request.post('/panels').set(f.auth(f.admin)).send({ ...base, type: 'gauge', options: [1] }).expect(400);
    expect(extensionOptions.body.errors[0].extensions.field).toBe('options');
    const updated = await f.t.request.patch(`/panels/${panels[0]}`).set(f.auth(f.admin)).send({ options: { collection: 'articles', field: 'views', function: 'mode' } }).expect(400);
    expect(updated.body.errors[0].extensions.field).toBe('options.function');
    // metric.sortField would change nothing (every metric function is an aggregate): refused, named.
    const sorted = await f.t.request.patch(`/panels/${panels[0]}`).set(f.auth(f.admin)).send({ options: { collection: 'articles', field: 'views', function: 'sum', sortField: 'views' } }).expect(400);
    expect(sorted.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'options.sortField' });
    expect(sorted.body.errors[0].message).toContain('options.sortField');
    // Changing the type alone checks the stored options against the new type.
    const retyped = await f.t.request.patch(`/panels/${panels[0]}`).set(f.auth(f.admin)).send({ type: 'meter' }).expect(400);
    expect(retyped.body.errors[0].extensions.field).toBe('options.goal');
    await f.t.request.patch(`/panels/${panels[0]}`).set(f.auth(f.admin)).send({ options: { collection: 'articles', field: 'views', function: 'avg' } }).expect(200);
    await f.t.request.patch(`/panels/${panels[0]}`).set(f.auth(f.admin)).send({ width: 8 }).expect(200);
  });
});

describe('GET /server/info', () => {
  it('tells the project time zone', async () => {
    expect((await f.t.request.get('/server/info').expect(200)).body.data.project.time_zone).toBe('UTC');
  });
});
