import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesService } from '../../../server/services/roles-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

type Field = { collection: string; field: string; meta: { note?: string | null } | null };

// GET /fields is kept as JSON bytes per overview and visibility, assembled from per-collection fragments
// (services/schema/fields-json.ts): every change must show in the very next answer, whatever the caller asks.
describe.each<{ name: string; env: Record<string, string> }>([
  { name: 'response cache off', env: {} },
  { name: 'response cache on', env: { CACHE_ENABLED: 'true' } },
])('issue 36: the kept GET /fields answer follows every change ($name)', ({ env }) => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let writerRole: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  /**
   * A kept schema list in each encoding a client may accept (superagent decodes gzip and br): the decoded
   * answers must equal the identity answer, and it is returned once.
   */
  async function list<T>(route: string, token: string): Promise<T[]> {
    const answers = [];
    for (const [accepted, coding] of [['identity', undefined], ['gzip', 'gzip'], ['br', 'br'], ['gzip, deflate, br', 'br'], ['gzip, br;q=0', 'gzip']] as const) {
      const response = await t.request.get(route).set(as(token)).set('Accept-Encoding', accepted).expect(200);
      if (coding === undefined) expect(response.headers['content-encoding']).toBeUndefined();
      else expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers.vary).toMatch(/Accept-Encoding/);
      answers.push(response.body.data as T[]);
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    return answers[0]!;
  }
  const fields = (token: string) => list<Field>('/fields', token);
  const names = (list: Field[], collection: string) => list.filter((field) => field.collection === collection).map((field) => field.field);

  beforeAll(async () => {
    t = await createTestApp(env);
    admin = await t.login();
    for (const collection of ['alpha', 'bravo', 'charlie']) {
      await t.request.post('/collections').set(as(admin)).send({ collection, fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }] }).expect(200);
    }
    const role = await new RolesService(t.system).create({ name: 'Reader', admin_access: false, app_access: true });
    writerRole = role.id as string;
    await new UsersService(t.system).createOne({ email: 'reader@example.com', password: 'reader-password', role: writerRole });
    writer = await t.login('reader@example.com', 'reader-password');
  });
  afterAll(() => t.close());

  it('a field added, changed and deleted shows in the next answer, and untouched collections stay as they were', async () => {
    const before = await fields(admin);
    await t.request.post('/fields/bravo').set(as(admin)).send({ field: 'added', type: 'integer' }).expect(200);
    const added = await fields(admin);
    expect(names(added, 'bravo')).toEqual(['id', 'title', 'body', 'added']);
    expect(added.filter((field) => field.collection !== 'bravo')).toEqual(before.filter((field) => field.collection !== 'bravo'));

    await t.request.patch('/fields/bravo/title').set(as(admin)).send({ meta: { note: 'changed' } }).expect(200);
    expect((await fields(admin)).find((field) => field.collection === 'bravo' && field.field === 'title')!.meta!.note).toBe('changed');

    await t.request.delete('/fields/bravo/added').set(as(admin)).expect(204);
    expect(names(await fields(admin), 'bravo')).toEqual(['id', 'title', 'body']);
  });

  it('a relation gives the fragment of the collection holding the foreign key its target', async () => {
    await t.request.post('/fields/charlie').set(as(admin)).send({ field: 'alpha', type: 'integer' }).expect(200);
    expect((await fields(admin)).find((field) => field.collection === 'charlie' && field.field === 'alpha')).toMatchObject({ schema: { foreign_key_table: null } });
    await t.request.post('/relations').set(as(admin)).send({ collection: 'charlie', field: 'alpha', related_collection: 'alpha' }).expect(200);
    expect((await fields(admin)).find((field) => field.collection === 'charlie' && field.field === 'alpha')).toMatchObject({ schema: { foreign_key_table: 'alpha', foreign_key_column: 'id' } });
  });

  it("a permission change shows in a non-admin's next answer", async () => {
    expect(names(await fields(writer), 'alpha')).toEqual([]);
    const created = await t.request.post('/permissions').set(as(admin)).send({ role: writerRole, collection: 'alpha', action: 'read', fields: ['id', 'title'] }).expect(200);
    expect(names(await fields(writer), 'alpha')).toEqual(['id', 'title']);
    await t.request.patch(`/permissions/${created.body.data.id}`).set(as(admin)).send({ fields: ['id', 'title', 'body'] }).expect(200);
    expect(names(await fields(writer), 'alpha')).toEqual(['id', 'title', 'body']);
    // The administrators' answer was not narrowed by the reader's.
    expect(names(await fields(admin), 'bravo')).toEqual(['id', 'title', 'body']);
  });

  it('a deleted collection is gone from the next answer', async () => {
    expect(names(await fields(admin), 'alpha').length).toBeGreaterThan(0);
    await t.request.delete('/collections/alpha').set(as(admin)).expect(204);
    const after = await fields(admin);
    expect(names(after, 'alpha')).toEqual([]);
    expect(after.find((field) => field.collection === 'charlie' && field.field === 'alpha')).toMatchObject({ schema: { foreign_key_table: null } });
    expect(names(await fields(writer), 'alpha')).toEqual([]);
  });
  it('/collections and /relations: a change shows in every encoding', async () => {
    await t.request.post('/collections').set(as(admin)).send({ collection: 'delta', fields: [{ field: 'charlie', type: 'integer' }] }).expect(200);
    expect((await list<{ collection: string }>('/collections', admin)).map((entry) => entry.collection)).toContain('delta');
    await t.request.post('/relations').set(as(admin)).send({ collection: 'delta', field: 'charlie', related_collection: 'charlie' }).expect(200);
    expect((await list<{ collection: string; field: string }>('/relations', admin)).some((relation) => relation.collection === 'delta' && relation.field === 'charlie')).toBe(true);
    await t.request.delete('/collections/delta').set(as(admin)).expect(204);
    expect((await list<{ collection: string }>('/collections', admin)).map((entry) => entry.collection)).not.toContain('delta');
  });

});

describe('issue 36: with the response cache on, the kept GET /fields answer revalidates', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ CACHE_ENABLED: 'true' });
    admin = await t.login();
    await t.request.post('/collections').set('Authorization', `Bearer ${admin}`).send({ collection: 'alpha', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  });
  afterAll(() => t.close());

  it.each(['identity', 'gzip', 'br'])('answers 304 to its ETag (%s) until a field changes, then 200 with the change and a new ETag', async (encoding) => {
    const get = (etag?: string) => t.request.get('/fields').set('Authorization', `Bearer ${admin}`).set('Accept-Encoding', encoding).set(etag ? { 'If-None-Match': etag } : {});
    const first = await get().expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    await get(etag).expect(304);
    await t.request.post('/fields/alpha').set('Authorization', `Bearer ${admin}`).send({ field: `added_${encoding}`, type: 'string' }).expect(200);
    const changed = await get(etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.data.some((field: Field) => field.collection === 'alpha' && field.field === `added_${encoding}`)).toBe(true);
  });

  it('gives each encoding its own strong ETag: bytes that differ never share a validator', async () => {
    const etags = new Set<string>();
    for (const encoding of ['identity', 'gzip', 'br']) {
      etags.add((await t.request.get('/fields').set('Authorization', `Bearer ${admin}`).set('Accept-Encoding', encoding).expect(200)).headers.etag as string);
    }
    expect(etags.size).toBe(3);
  });
});
