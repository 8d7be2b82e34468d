import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

type Snapshot = { fields: Array<{ collection: string; field: string; schema: Record<string, unknown> | null }> } & Record<string, unknown>;

async function indexNames(t: TestApp, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(t.system.db);
  return rows.map((row) => row.name).sort();
}

describe('is_indexed in snapshots', () => {
  let t: TestApp;
  let other: TestApp;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;
  const fieldOf = (snapshot: Snapshot, name: string) => snapshot.fields.find((field) => field.collection === 'notes' && field.field === name)!;

  beforeAll(async () => {
    [t, other] = await Promise.all([createTestApp(), createTestApp()]);
    auth = { Authorization: `Bearer ${await t.login()}` };
    otherAuth = { Authorization: `Bearer ${await other.login()}` };
    await t.request
      .post('/collections')
      .set(auth)
      .send({ collection: 'notes', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string', schema: { is_indexed: true } }, { field: 'body', type: 'text' }] })
      .expect(200);
  });
  afterAll(() => Promise.all([t.close(), other.close()]));

  it('snapshot reports it, and applying the snapshot to another database builds the index', async () => {
    const snapshot = (await t.request.get('/schema/snapshot').set(auth).expect(200)).body.data as Snapshot;
    expect(fieldOf(snapshot, 'title').schema).toMatchObject({ is_indexed: true });
    expect(fieldOf(snapshot, 'body').schema).toMatchObject({ is_indexed: false });
    const diff = (await other.request.post('/schema/diff').set(otherAuth).send(snapshot).expect(200)).body.data;
    await other.request.post('/schema/apply').set(otherAuth).send(diff).expect(204);
    expect(await indexNames(other, 'notes')).toContain('notes_title_index');
    await other.request.post('/schema/diff').set(otherAuth).send(snapshot).expect(204);
  });

  it('a change of is_indexed is one field step that apply carries out (both ways)', async () => {
    const snapshot = (await t.request.get('/schema/snapshot').set(auth).expect(200)).body.data as Snapshot;
    fieldOf(snapshot, 'title').schema!.is_indexed = false;
    fieldOf(snapshot, 'body').schema!.is_indexed = true;
    const diff = (await other.request.post('/schema/diff').set(otherAuth).send(snapshot).expect(200)).body.data;
    expect(diff.diff.steps).toEqual([
      expect.objectContaining({ kind: 'field', action: 'update', name: 'notes.body', changes: [{ path: 'schema.is_indexed', from: false, to: true }] }),
      expect.objectContaining({ kind: 'field', action: 'update', name: 'notes.title', changes: [{ path: 'schema.is_indexed', from: true, to: false }] }),
    ]);
    await other.request.post('/schema/apply').set(otherAuth).send(diff).expect(204);
    const names = await indexNames(other, 'notes');
    expect(names).toContain('notes_body_index');
    expect(names).not.toContain('notes_title_index');
  });

  it('a snapshot without the key (written before indexes were managed) leaves indexes alone', async () => {
    const snapshot = (await other.request.get('/schema/snapshot').set(otherAuth).expect(200)).body.data as Snapshot;
    for (const field of snapshot.fields) if (field.schema) delete field.schema.is_indexed;
    fieldOf(snapshot, 'body').schema!.max_length = null;
    await other.request.post('/schema/diff').set(otherAuth).send(snapshot).expect(204);
    // A new field without the key gets no index; the existing one keeps its.
    snapshot.fields.push({ ...fieldOf(snapshot, 'body'), field: 'summary', schema: { ...fieldOf(snapshot, 'body').schema } } as never);
    const diff = (await other.request.post('/schema/diff').set(otherAuth).send(snapshot).expect(200)).body.data;
    expect(diff.diff.steps.map((step: { name: string; action: string }) => `${step.action} ${step.name}`)).toEqual(['create notes.summary']);
    await other.request.post('/schema/apply').set(otherAuth).send(diff).expect(204);
    const names = await indexNames(other, 'notes');
    expect(names).toContain('notes_body_index');
    expect(names).not.toContain('notes_summary_index');
  });
});
