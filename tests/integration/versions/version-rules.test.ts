import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionPayload } from '../../../server/events/event-names.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The documented rules of docs/versions.md that the main versions test does not send (issue 37 item 5). */
describe('content versions: keys, saves and deletion', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const createVersion = (body: object) => t.request.post('/versions').set(auth()).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'pages', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/items/pages').set(auth()).send([{ title: 'One' }, { title: 'Two' }]).expect(200);
  });
  afterAll(() => t.close());

  it('refuses the key "main" in any case and keys over 64 characters, naming the field', async () => {
    for (const key of ['main', 'Main', 'x'.repeat(65)]) {
      const refused = await createVersion({ key, collection: 'pages', item: 1 }).expect(400);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'key' });
    }
    await createVersion({ key: 'x'.repeat(64), collection: 'pages', item: 1 }).expect(200);
  });

  it('refuses to save the primary key into a version, and stores nothing', async () => {
    const version = (await createVersion({ key: 'rekey', collection: 'pages', item: 1 }).expect(200)).body.data;
    const refused = await t.request.post(`/versions/${version.id}/save`).set(auth()).send({ id: 99, title: 'Moved' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'id' });
    const saves = await t.system.db.selectFrom('tessera_revisions').select('id').where('version', '=', version.id).execute();
    expect(saves).toEqual([]);
  });

  it('fires no action hook for a save: a later update of the main item is heard, the save never', async () => {
    const heard: ActionPayload[] = [];
    const off = t.context.events.onAction('pages.items.update', (meta) => void heard.push(meta));
    try {
      const version = (await createVersion({ key: 'quiet', collection: 'pages', item: 1 }).expect(200)).body.data;
      await t.request.post(`/versions/${version.id}/save`).set(auth()).send({ title: 'Saved quietly' }).expect(200);
      // The sentinel: an update that must be heard, issued after the save.
      await t.request.patch('/items/pages/2').set(auth()).send({ title: 'Two, changed' }).expect(200);
      await expect.poll(() => heard.map((meta) => meta.keys.map(String)).flat()).toContain('2');
      expect(heard.flatMap((meta) => meta.keys.map(String))).toEqual(['2']);
      expect((await t.request.get('/items/pages/1').set(auth()).expect(200)).body.data.title).toBe('One');
    } finally {
      off();
    }
  });

  it('deleting a version deletes its saves', async () => {
    const version = (await createVersion({ key: 'gone', collection: 'pages', item: 2 }).expect(200)).body.data;
    await t.request.post(`/versions/${version.id}/save`).set(auth()).send({ title: 'First save' }).expect(200);
    await t.request.post(`/versions/${version.id}/save`).set(auth()).send({ title: 'Second save' }).expect(200);
    const count = async () => Number((await sql<{ count: string }>`select count(*) from tessera_revisions where version = ${version.id}`.execute(t.system.db)).rows[0]!.count);
    expect(await count()).toBe(2);
    await t.request.delete(`/versions/${version.id}`).set(auth()).expect(204);
    expect(await count()).toBe(0);
  });
});
