import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Group fields (meta.group) survive a snapshot taken on one project and applied to another.
describe('field groups in snapshots', () => {
  let source: TestApp;
  let target: TestApp;
  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('round-trips meta.group, nested groups included', async () => {
    const auth = { Authorization: `Bearer ${await source.login()}` };
    await source.request
      .post('/collections')
      .set(auth)
      .send({
        collection: 'pages',
        fields: [
          { field: 'title', type: 'string' },
          { field: 'seo', type: 'alias', meta: { special: ['alias', 'no-data', 'group'], interface: 'group-detail' } },
          { field: 'advanced', type: 'alias', meta: { special: ['alias', 'no-data', 'group'], interface: 'group-raw', group: 'seo' } },
          { field: 'slug', type: 'string', meta: { group: 'seo', sort: 2 } },
          { field: 'canonical', type: 'string', meta: { group: 'advanced' } },
        ],
      })
      .expect(200);
    const snapshot = (await source.request.get('/schema/snapshot').set(auth).expect(200)).body.data;
    const groupOf = (fields: Array<{ collection: string; field: string; meta: { group: string | null } | null }>) =>
      Object.fromEntries(fields.filter((field) => field.collection === 'pages').map((field) => [field.field, field.meta?.group ?? null]));
    const expected = { id: null, title: null, seo: null, advanced: 'seo', slug: 'seo', canonical: 'advanced' };
    expect(groupOf(snapshot.fields)).toEqual(expected);

    const targetAuth = { Authorization: `Bearer ${await target.login()}` };
    const diff = (await target.request.post('/schema/diff').set(targetAuth).send(snapshot).expect(200)).body.data;
    await target.request.post('/schema/apply').set(targetAuth).send(diff).expect(204);
    expect(groupOf((await target.request.get('/fields/pages').set(targetAuth).expect(200)).body.data)).toEqual(expected);
    await target.request.post('/schema/diff').set(targetAuth).send(snapshot).expect(204);
  });
});
