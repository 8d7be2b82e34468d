import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFolder } from '../../../server/snapshot/load-snapshot.ts';
import { writeSnapshot } from '../../../server/snapshot/serialize.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { readTree, snapshotService } from './snapshot-helpers.ts';

const SECRETS = ['Bearer webhook-secret-42', 'operation-token-42', 'api-key-value-42', 'pk.mapbox-secret-42'];

describe('secrets in snapshots', () => {
  let source: TestApp;
  let target: TestApp;
  const folder = mkdtempSync(path.join(tmpdir(), 'tessera-secrets-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
    const auth = { Authorization: `Bearer ${await source.login()}` };
    await source.request.post('/webhooks').set(auth).send({ name: 'Notify Slack', url: 'https://hooks.example.com/x', actions: ['create'], collections: ['tessera_users'], headers: [{ header: 'Authorization', value: SECRETS[0] }, { header: 'X-Trace', value: 'visible' }] }).expect(200);
    const flow = (await source.request.post('/flows').set(auth).send({ name: 'Ping', trigger: 'manual', options: { collections: ['tessera_users'] } }).expect(200)).body.data;
    await source.request
      .post('/operations')
      .set(auth)
      .send({ flow: flow.id, key: 'call_api', type: 'request', position_x: 19, position_y: 1, options: { url: 'https://api.example.com', token: SECRETS[1], headers: [{ header: 'X-Api-Key', value: SECRETS[2] }] } })
      .expect(200);
    await source.request.patch('/settings').set(auth).send({ mapbox_key: SECRETS[3] }).expect(200);
    // Configuration without secrets travels too: dashboards with panels, nested folders.
    const dashboard = (await source.request.post('/dashboards').set(auth).send({ name: 'Editorial', icon: 'insights' }).expect(200)).body.data;
    await source.request.post('/panels').set(auth).send({ dashboard: dashboard.id, name: 'Posts', type: 'metric', position_x: 1, position_y: 1, width: 6, height: 4, options: { collection: 'tessera_users', field: 'id', function: 'count' } }).expect(200);
    const parent = (await source.request.post('/folders').set(auth).send({ name: 'Images' }).expect(200)).body.data;
    await source.request.post('/folders').set(auth).send({ name: 'Covers', parent: parent.id }).expect(200);
    writeSnapshot(folder, await snapshotService(source).read(), 'yaml');
    env = {
      TESSERA_WEBHOOK_NOTIFY_SLACK_AUTHORIZATION: SECRETS[0]!,
      TESSERA_FLOW_PING_CALL_API_TOKEN: SECRETS[1]!,
      TESSERA_FLOW_PING_CALL_API_HEADERS_X_API_KEY: SECRETS[2]!,
      TESSERA_SETTINGS_MAPBOX_KEY: SECRETS[3]!,
    };
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes ${env:NAME} references, never the values, to the files and to GET /schema/snapshot', async () => {
    const text = [...readTree(folder).values()].join('\n');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    for (const name of Object.keys(env)) expect(text).toContain(`\${env:${name}}`);
    expect(text).toContain('visible');
    const http = JSON.stringify((await source.request.get('/schema/snapshot').set('Authorization', `Bearer ${await source.login()}`).expect(200)).body);
    for (const secret of SECRETS) expect(http).not.toContain(secret);
  });

  it('apply fails naming every variable that is not set, and changes nothing', async () => {
    const error = (await snapshotService(target, { TESSERA_SETTINGS_MAPBOX_KEY: 'x' })
      .apply(loadSnapshotFolder(folder))
      .catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ code: 'INVALID_PAYLOAD' });
    expect(error!.message).toContain('TESSERA_WEBHOOK_NOTIFY_SLACK_AUTHORIZATION (webhooks[0].headers[0].value)');
    expect(error!.message).toContain('TESSERA_FLOW_PING_CALL_API_TOKEN');
    expect(error!.message).not.toContain('TESSERA_SETTINGS_MAPBOX_KEY');
    expect(await target.context.database.kysely().selectFrom('tessera_webhooks').selectAll().execute()).toEqual([]);
  });

  it('apply resolves the references from the environment; diff then finds nothing, with or without the variables', async () => {
    await snapshotService(target, env).apply(loadSnapshotFolder(folder));
    const db = target.context.database.kysely();
    expect((await db.selectFrom('tessera_settings').select('mapbox_key').executeTakeFirstOrThrow()).mapbox_key).toBe(SECRETS[3]);
    expect((await db.selectFrom('tessera_webhooks').select('headers').executeTakeFirstOrThrow()).headers).toEqual([{ header: 'Authorization', value: SECRETS[0] }, { header: 'X-Trace', value: 'visible' }]);
    expect((await db.selectFrom('tessera_operations').select('options').executeTakeFirstOrThrow()).options).toMatchObject({ token: SECRETS[1], headers: [{ header: 'X-Api-Key', value: SECRETS[2] }] });
    expect((await snapshotService(target, env).plan(loadSnapshotFolder(folder))).plan.steps).toEqual([]);
    const covers = await db.selectFrom('tessera_folders as child').innerJoin('tessera_folders as parent', 'parent.id', 'child.parent').select(['child.name as child', 'parent.name as parent']).execute();
    expect(covers).toEqual([{ child: 'Covers', parent: 'Images' }]);
    expect(await db.selectFrom('tessera_panels').select(['name', 'width']).execute()).toEqual([{ name: 'Posts', width: 6 }]);
    const blind = (await snapshotService(target, {}).plan(loadSnapshotFolder(folder))).plan;
    expect(blind.steps).toEqual([]);
    expect(blind.unresolved).toHaveLength(4);

    // A rotated secret is a change, and the plan shows the reference, not the value.
    const rotated = (await snapshotService(target, { ...env, TESSERA_SETTINGS_MAPBOX_KEY: 'pk.rotated' }).plan(loadSnapshotFolder(folder))).plan;
    expect(rotated.steps).toEqual([expect.objectContaining({ kind: 'settings', changes: [{ path: 'mapbox_key', from: '${env:TESSERA_SETTINGS_MAPBOX_KEY}', to: '${env:TESSERA_SETTINGS_MAPBOX_KEY}' }] })]);
    expect(JSON.stringify(rotated)).not.toContain('pk.rotated');
  });
});
