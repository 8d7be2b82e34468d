import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFolder, parseSnapshotDocument } from '../../../server/snapshot/load-snapshot.ts';
import { writeSnapshot } from '../../../server/snapshot/serialize.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from '../flows/flow-fixture.ts';
import { snapshotService } from './snapshot-helpers.ts';

/** A flow's operations as key → [resolve key, reject key], read from the database (uuids followed). */
async function chain(app: TestApp, flowName: string): Promise<{ first: string | null; links: Record<string, [string | null, string | null]> }> {
  const db = app.context.database.kysely();
  const flow = await db.selectFrom('tessera_flows').select(['id', 'operation']).where('name', '=', flowName).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('tessera_operations').select(['id', 'key', 'resolve', 'reject']).where('flow', '=', flow.id).execute();
  const keyOf = new Map(rows.map((row) => [row.id, row.key as string]));
  const key = (id: unknown) => (id ? (keyOf.get(id) ?? `missing ${String(id)}`) : null);
  return { first: key(flow.operation), links: Object.fromEntries(rows.map((row) => [row.key, [key(row.resolve), key(row.reject)]])) };
}

describe('flows and operations in snapshots', () => {
  let source: TestApp;
  let target: TestApp;
  let token: string;
  const folder = mkdtempSync(path.join(tmpdir(), 'tessera-flow-ops-'));
  const expected = { first: 'check', links: { check: ['big', 'small'], big: ['tell', null], small: [null, null], tell: [null, null] } };

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
    token = await source.login();
    await createFlow(source, token, { name: 'Sizer', trigger: 'webhook', options: { method: 'POST', return: '$all' } }, [
      { key: 'check', type: 'condition', options: { filter: { $trigger: { body: { amount: { _gt: 100 } } } } }, resolve: 'big', reject: 'small' },
      { key: 'big', type: 'transform', options: { json: { size: 'big' } }, resolve: 'tell' },
      { key: 'tell', type: 'log', options: { message: 'big one' } },
      { key: 'small', type: 'transform', options: { json: { size: 'small' } } },
    ]);
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes operations keyed by flow + key, with resolve, reject and the first operation as keys', async () => {
    const document = await snapshotService(source).read();
    const flow = document.flows!.find((row) => row.name === 'Sizer')!;
    expect(flow.operation).toBe('check');
    const operations = document.operations!.filter((row) => row.flow === flow.id);
    expect(operations.map((row) => [row.key, row.resolve, row.reject]).sort()).toEqual([
      ['big', 'tell', null],
      ['check', 'big', 'small'],
      ['small', null, null],
      ['tell', null, null],
    ]);
    for (const operation of operations) expect(operation).not.toHaveProperty('id');
    writeSnapshot(folder, document, 'yaml');
    const file = readFileSync(path.join(folder, 'config', 'flows.yaml'), 'utf8');
    expect(file).toContain('resolve: big');
    expect(file).not.toMatch(/resolve: [0-9a-f]{8}-/);
  });

  it('applies to another database with the chain intact, runs there, and diffs clean after', async () => {
    await snapshotService(target).apply(loadSnapshotFolder(folder));
    expect(await chain(target, 'Sizer')).toEqual(expected);
    const flow = await target.context.database.kysely().selectFrom('tessera_flows').select('id').where('name', '=', 'Sizer').executeTakeFirstOrThrow();
    expect((await target.request.post(`/flows/trigger/${flow.id}`).send({ amount: 500 }).expect(200)).body).toMatchObject({ big: { size: 'big' }, tell: null });
    expect((await target.request.post(`/flows/trigger/${flow.id}`).send({ amount: 5 }).expect(200)).body).toMatchObject({ small: { size: 'small' } });
    expect((await snapshotService(target).plan(loadSnapshotFolder(folder))).plan.steps).toEqual([]);
  });

  it('re-links a changed chain on apply (a new operation between two, a removed one)', async () => {
    const document = loadSnapshotFolder(folder);
    const flowId = document.flows!.find((row) => row.name === 'Sizer')!.id;
    document.operations = document.operations!.filter((row) => row.key !== 'tell').map((row) => (row.key === 'big' ? { ...row, resolve: 'audit' } : row));
    document.operations.push({ flow: flowId, key: 'audit', name: null, type: 'log', position_x: 5, position_y: 5, options: { message: 'audited' }, resolve: null, reject: null });
    await snapshotService(target).apply(parseSnapshotDocument(document, 'edited'));
    expect(await chain(target, 'Sizer')).toEqual({ first: 'check', links: { check: ['big', 'small'], big: ['audit', null], small: [null, null], audit: [null, null] } });
    // And back to the file's chain.
    await snapshotService(target).apply(loadSnapshotFolder(folder));
    expect(await chain(target, 'Sizer')).toEqual(expected);
  });

  it('still applies a snapshot written with operation ids (the older format)', async () => {
    const document = JSON.parse(JSON.stringify(await snapshotService(source).read()));
    const ids = new Map<string, string>(document.operations.map((row: { key: string }) => [row.key, randomUUID()]));
    document.operations = document.operations.map((row: Record<string, unknown>) => ({
      id: ids.get(row.key as string),
      ...row,
      resolve: row.resolve ? ids.get(row.resolve as string) : null,
      reject: row.reject ? ids.get(row.reject as string) : null,
    }));
    document.flows = document.flows.map((row: Record<string, unknown>) => ({ ...row, operation: row.operation ? ids.get(row.operation as string) : null }));
    const fresh = await createTestApp();
    try {
      await snapshotService(fresh).apply(parseSnapshotDocument(document, 'old format'));
      expect(await chain(fresh, 'Sizer')).toEqual(expected);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a snapshot whose resolve names no operation of the flow', () => {
    const document = loadSnapshotFolder(folder);
    document.operations = document.operations!.map((row) => (row.key === 'check' ? { ...row, reject: 'nowhere' } : row));
    expect(() => parseSnapshotDocument(document, 'broken')).toThrow(/reject "nowhere" is not an operation of the same flow/);
  });

  it('checks operation key uniqueness per flow on update too (400 naming key)', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const ops = (await source.request.get('/operations?fields=id,key&filter[key][_in]=big,small').set(auth).expect(200)).body.data as Array<{ id: string; key: string }>;
    const small = ops.find((op) => op.key === 'small')!;
    const clash = await source.request.patch(`/operations/${small.id}`).set(auth).send({ key: 'big' }).expect(400);
    expect(clash.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'key' });
    const batch = await source.request.patch('/operations').set(auth).send({ keys: ops.map((op) => op.id), data: { key: 'same' } }).expect(400);
    expect(batch.body.errors[0].extensions).toMatchObject({ field: 'key' });
    await source.request.patch(`/operations/${small.id}`).set(auth).send({ key: 'tiny', name: 'renamed' }).expect(200);
    await source.request.patch(`/operations/${small.id}`).set(auth).send({ key: 'tiny' }).expect(200);
    await source.request.patch(`/operations/${small.id}`).set(auth).send({ key: 'small' }).expect(200);
  });
});
