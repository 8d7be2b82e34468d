import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Revisions hold copies of items: a reader sees in them only the fields (and items) it may read of the
 * item itself (security issue item 7).
 */
describe('revision data and delta follow the item’s read permission', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const send = (path: string, body: object) => t.request.post(path).set(auth(admin)).send(body).expect(200);
    await send('/collections', { collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'secret', type: 'string' }] });
    await send('/items/articles', [{ title: 'Public', status: 'published', secret: 'S1' }, { title: 'Draft', status: 'draft', secret: 'S2' }]);
    await t.request.patch('/items/articles/1').set(auth(admin)).send({ secret: 'S3', title: 'Public 2' }).expect(200);
    const role = (await send('/roles', { name: 'Reader', app_access: false })).body.data.id;
    await send('/permissions', { role, collection: 'articles', action: 'read', fields: 'id,title,status', permissions: { status: { _eq: 'published' } } });
    await send('/permissions', { role, collection: 'tessera_revisions', action: 'read', fields: '*' });
    await send('/permissions', { role, collection: 'tessera_activity', action: 'read', fields: '*' });
    await send('/users', { email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' });
    reader = await t.login('reader@example.com', 'reader-password-1');
  });
  afterAll(() => t.close());

  it('cuts data and delta down to the readable fields, and empties them for unreadable items', async () => {
    for (const fields of ['data,delta,item', '*']) {
      const response = await t.request.get(`/revisions?fields=${fields}&filter[collection][_eq]=articles&sort=id`).set(auth(reader)).expect(200);
      const rows = response.body.data as Array<{ item: string; data: Record<string, unknown> | null; delta: Record<string, unknown> | null }>;
      expect(rows.map((row) => row.item)).toEqual(['1', '2', '1']);
      expect(JSON.stringify(rows)).not.toMatch(/S[123]|secret/);
      expect(rows[0]!.data).toEqual({ id: 1, title: 'Public', status: 'published' });
      expect(rows[1]).toMatchObject({ data: null, delta: null });
      expect(rows[2]!.delta).toEqual({ title: 'Public 2' });
    }
    const one = await t.request.get('/revisions?fields=data&filter[collection][_eq]=articles&limit=1').set(auth(reader)).expect(200);
    expect(one.body.data).toEqual([{ data: { id: 1, title: 'Public', status: 'published' } }]);
  });

  it('refuses the copies through nested paths, filters and sorts', async () => {
    await t.request.get('/activity?fields=revisions.data').set(auth(reader)).expect(403);
    await t.request.get('/revisions?fields=id,parent.delta').set(auth(reader)).expect(403);
    await t.request.get('/revisions?filter[data][_contains]=S1').set(auth(reader)).expect(403);
    await t.request.get('/revisions?sort=delta').set(auth(reader)).expect(403);
    // Administrators still read everything.
    const full = await t.request.get('/revisions?fields=data&filter[collection][_eq]=articles&sort=id').set(auth(admin)).expect(200);
    expect(full.body.data[0].data.secret).toBe('S1');
  });
});
