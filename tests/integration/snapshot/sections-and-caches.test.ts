import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotDocument } from '../../../server/snapshot/types.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { snapshotService } from './snapshot-helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('an absent section is left alone, a present but empty one is emptied (docs/snapshots.md)', () => {
  let t: TestApp;
  let auth: { Authorization: string };

  const translations = async () => (await t.system.db.selectFrom('tessera_translations').select(['key', 'language', 'value']).orderBy('key').execute());

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request
      .post('/translations')
      .set(auth)
      .send([
        { key: 'greeting', language: 'en-US', value: 'Hello' },
        { key: 'farewell', language: 'en-US', value: 'Goodbye' },
      ])
      .expect(200);
  });
  afterAll(() => t.close());

  it('a snapshot without translations neither plans nor applies anything for them', async () => {
    const document = await snapshotService(t).read();
    expect(document.translations).toHaveLength(2);
    const { translations: _left, ...withoutTranslations } = document;
    const result = await snapshotService(t).apply(withoutTranslations as SnapshotDocument);
    expect(result.plan.steps.filter((step) => step.kind === 'translations')).toEqual([]);
    expect(await translations()).toEqual([
      { key: 'farewell', language: 'en-US', value: 'Goodbye' },
      { key: 'greeting', language: 'en-US', value: 'Hello' },
    ]);
  });

  it('the same snapshot with translations: [] deletes every translation the database has', async () => {
    const document = { ...(await snapshotService(t).read()), translations: [] };
    const plan = await snapshotService(t).plan(document);
    expect(plan.plan.steps.filter((step) => step.kind === 'translations').map((step) => [step.action, step.name]).sort()).toEqual([
      ['delete', 'farewell en-US'],
      ['delete', 'greeting en-US'],
    ]);
    const result = await snapshotService(t).apply(document, { allowDataLoss: true });
    expect(result.applied).toBe(true);
    expect(await translations()).toEqual([]);
  });
});

describe('after an apply, the schema and permission caches are dropped on every instance', () => {
  let first: TestApp;
  let instance: SecondInstance;
  let admin: { Authorization: string };
  let reader: { Authorization: string };

  beforeAll(async () => {
    first = await createTestApp({ REDIS_URL });
    instance = await startSecondInstance(first);
    admin = { Authorization: `Bearer ${await first.login()}` };
    await first.request.post('/collections').set(admin).send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }] }).expect(200);
    await first.request.post('/items/notes').set(admin).send({ title: 'One', body: 'first body' }).expect(200);
    const role = (await first.request.post('/roles').set(admin).send({ name: 'Reader', app_access: true }).expect(200)).body.data.id;
    await first.request.post('/permissions').set(admin).send({ role, collection: 'notes', action: 'read', fields: 'title' }).expect(200);
    await first.request.post('/users').set(admin).send({ email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' }).expect(200);
    reader = { Authorization: `Bearer ${await first.login('reader@example.com', 'reader-password-1')}` };
  });
  afterAll(async () => {
    await instance.close();
    await first.close();
  });

  it('a permission and a field changed by apply reach requests on both instances', async () => {
    // Both instances have built and cached the schema and the reader's permissions.
    for (const request of [first.request, instance.request]) {
      expect((await request.get('/items/notes').set(reader).expect(200)).body.data).toEqual([{ title: 'One' }]);
      await request.get('/items/notes?fields=body').set(reader).expect(403);
      await request.get('/items/notes?fields=summary').set(admin).expect(400);
    }

    const document = await snapshotService(first).read();
    const permission = document.permissions!.find((row) => row.collection === 'notes' && row.action === 'read')!;
    permission.fields = Array.isArray(permission.fields) ? ['title', 'body'] : 'title,body';
    const title = document.fields.find((field) => field.collection === 'notes' && field.field === 'title')!;
    document.fields.push({ ...structuredClone(title), field: 'summary', meta: title.meta ? { ...structuredClone(title.meta), field: 'summary' } : null });
    const result = await snapshotService(first).apply(document);
    expect(result.plan.steps.map((step) => `${step.kind} ${step.action}`).sort()).toEqual(['field create', 'permissions update']);

    for (const request of [first.request, instance.request]) {
      await eventually(async () => {
        expect((await request.get('/items/notes?fields=title,body').set(reader)).body.data).toEqual([{ title: 'One', body: 'first body' }]);
        expect((await request.get('/items/notes?fields=summary').set(admin)).body.data).toEqual([{ summary: null }]);
      });
    }
  });
});
