import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { loadSnapshotFolder, parseSnapshotDocument } from '../../../server/snapshot/load-snapshot.ts';
import { writeSnapshot } from '../../../server/snapshot/serialize.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { snapshotService } from '../snapshot/snapshot-helpers.ts';
import { auth, openInsightsFixture, type InsightsFixture } from './insights-fixture.ts';

const PANEL_COLUMNS = ['id', 'dashboard', 'name', 'type', 'position_x', 'position_y', 'width', 'height', 'show_header', 'options'] as const;

describe('dashboards and panels as configuration', () => {
  let source: InsightsFixture;
  let target: TestApp;
  const folder = mkdtempSync(path.join(tmpdir(), 'tessera-insights-'));
  beforeAll(async () => {
    [source, target] = await Promise.all([openInsightsFixture(), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([source.t.close(), target.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('round-trips through snapshot files into a fresh database, options included, and a second plan is empty', async () => {
    const { id } = await source.dashboard([
      { type: 'time-series', options: { collection: 'articles', function: 'sum', valueField: 'views', dateField: 'published_at', precision: 'week', range: '3 months', groupBy: 'status', filter: { status: { _eq: '{{ state }}' } } } },
      { type: 'global-variable', options: { field: 'state', type: 'string', defaultValue: 'published' } },
      { type: 'label', options: { text: '## Notes\n\n*Weekly*', whiteSpace: 'pre-wrap' } },
    ]);
    writeSnapshot(folder, await snapshotService(source.t).read(), 'yaml');
    const result = await snapshotService(target).apply(loadSnapshotFolder(folder));
    expect(result.applied).toBe(true);

    const rows = (db: TestApp['system']['db']) => db.selectFrom('tessera_panels').select([...PANEL_COLUMNS]).orderBy('id').execute();
    expect(await rows(target.system.db)).toEqual(await rows(source.t.system.db));
    expect((await target.system.db.selectFrom('tessera_dashboards').select(['id', 'name']).execute())).toEqual([{ id, name: 'Numbers' }]);
    expect((await snapshotService(target).plan(loadSnapshotFolder(folder))).plan.steps).toEqual([]);

    // And the applied dashboard computes: the target has the same schema, no articles.
    const token = await target.login();
    const data = (await target.request.get(`/dashboards/${id}/data`).set(auth(token)).expect(200)).body.data;
    expect(Object.keys(data)).toHaveLength(3);
  });

  it('refuses panel options that a write through /panels would refuse, naming the panel and the option', async () => {
    const document = await snapshotService(source.t).read();
    const broken = { ...document, panels: document.panels!.map((panel, index) => (index === 0 ? { ...panel, type: 'metric', options: { collection: 'articles', field: 'views', function: 'median' } } : panel)) };
    let error: unknown;
    try {
      parseSnapshotDocument(JSON.parse(JSON.stringify(broken)), 'snapshot.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidPayloadError);
    expect((error as InvalidPayloadError).message).toContain('panels[0].options.function');
    expect((error as InvalidPayloadError).extensions.field).toBe('panels[0].options.function');
  });
});
