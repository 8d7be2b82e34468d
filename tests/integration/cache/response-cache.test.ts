import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createCacheFixture, type CacheFixture } from './cache-fixture.ts';

/** The response cache on one instance (memory store): hits, identities, purges, validators. */
let f: CacheFixture;
beforeAll(async () => {
  f = await createCacheFixture({ CACHE_SKIP_ALLOWED: 'true', CACHE_CONTROL_S_MAXAGE: '30' });
});
afterAll(() => f?.t.close());

const get = (path: string, token: string | null = null, headers: Record<string, string> = {}) => f.t.request.get(path).set({ ...f.as(token), ...headers });

describe('hits and misses', () => {
  it('answers a repeated read from the cache with the same body and validator', async () => {
    const path = '/items/articles?sort=id&fields=id,title';
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await get(path);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers['content-type']).toMatch(/application\/json/);
  });

  it('treats the same query with its parameters in another order as the same read', async () => {
    await get('/items/articles?fields=id&sort=-id&limit=2');
    const reordered = await get('/items/articles?limit=2&sort=-id&fields=id');
    expect(reordered.headers['x-cache']).toBe('HIT');
    expect(reordered.body.data).toHaveLength(2);
  });

  it('caches system reads too', async () => {
    expect((await get('/roles?fields=id,name', f.admin)).headers['x-cache']).toBe('MISS');
    expect((await get('/roles?fields=id,name', f.admin)).headers['x-cache']).toBe('HIT');
  });

  it('never caches errors, auth endpoints or the caller itself', async () => {
    const missing = await get('/items/nope');
    expect(missing.status).toBe(403);
    expect(missing.headers['x-cache']).toBeUndefined();
    expect((await get('/users/me', f.tokens.writer)).headers['x-cache']).toBeUndefined();
    expect((await get('/users/me', f.tokens.writer)).headers['x-cache']).toBeUndefined();
    expect((await get('/server/info')).headers['x-cache']).toBeUndefined();
    for (const path of ['/webhooks', '/flows', '/operations']) {
      const response = await get(path, f.admin);
      expect(response.status, path).toBe(200);
      expect(response.headers['x-cache'], path).toBeUndefined();
    }
  });

  it('never keeps an answer that carries a secret; concealed values are masked and may be kept', async () => {
    await f.send('post', '/collections', { collection: 'integrations', fields: [{ field: 'name', type: 'string' }, { field: 'api_key', type: 'string' }] });
    await f.send('post', '/items/integrations', { name: 'mailer', api_key: 'key-0123456789' });
    const secret = '/items/integrations?fields=name,api_key';
    expect((await get(secret, f.admin)).body.data).toEqual([{ name: 'mailer', api_key: 'key-0123456789' }]);
    expect((await get(secret, f.admin)).headers['x-cache']).toBe('MISS');
    expect((await get('/items/integrations?fields=name', f.admin)).headers['x-cache']).toBe('MISS');
    expect((await get('/items/integrations?fields=name', f.admin)).headers['x-cache']).toBe('HIT');
    await f.send('patch', `/users/${f.ids.writer2}`, { token: 'static-token-of-writer2-0123456789' });
    const masked = `/users/${f.ids.writer2}?fields=email,token`;
    expect((await get(masked, f.admin)).body.data.token).toBe('**********');
    expect((await get(masked, f.admin)).headers['x-cache']).toBe('HIT');
  });

  it('answers 304 to a client holding the current version, and 200 once it changed', async () => {
    const path = `/items/articles/${f.ids.articles[1]}?fields=title`;
    const first = await get(path);
    const etag = first.headers.etag as string;
    const again = await get(path, null, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    await f.send('patch', `/items/articles/${f.ids.articles[1]}`, { title: 'Second (edited)' });
    const changed = await get(path, null, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.data.title).toBe('Second (edited)');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('sets Cache-Control: public with s-maxage for the public, private for users, no-store when asked to skip', async () => {
    expect((await get('/items/authors?fields=id')).headers['cache-control']).toBe('public, max-age=0, s-maxage=30');
    expect((await get('/items/authors?fields=id', f.tokens.writer)).headers['cache-control']).toBe('private, no-cache');
    const skipped = await get('/items/authors?fields=id', null, { 'Cache-Control': 'no-store' });
    expect(skipped.headers['cache-control']).toBe('no-store');
    expect(skipped.headers['x-cache']).toBeUndefined();
  });
});

describe('identities', () => {
  it('lets public requests share one entry', async () => {
    expect((await get('/items/authors?sort=id')).headers['x-cache']).toBe('MISS');
    expect((await get('/items/authors?sort=id', null, { 'User-Agent': 'another client' })).headers['x-cache']).toBe('HIT');
  });

  it('never shares an entry between two users whose rules read $CURRENT_USER', async () => {
    const mine = await get('/items/notes?fields=body', f.tokens.writer);
    expect(mine.body.data).toEqual([{ body: 'note of writer' }]);
    expect((await get('/items/notes?fields=body', f.tokens.writer)).headers['x-cache']).toBe('HIT');
    const theirs = await get('/items/notes?fields=body', f.tokens.writer2);
    expect(theirs.headers['x-cache']).toBe('MISS');
    expect(theirs.body.data).toEqual([{ body: 'note of writer2' }]);
  });

  it('keeps users of one role apart when the query itself reads $CURRENT_USER', async () => {
    const me = (await get('/users/me?fields=id,role', f.admin)).body.data;
    const other = (await f.send('post', '/users', { email: 'admin2@example.com', password: 'admin2-password-1', role: me.role })).id as string;
    const otherToken = await f.t.login('admin2@example.com', 'admin2-password-1');
    const path = '/users?fields=id&filter[id][_eq]=$CURRENT_USER';
    expect((await get(path, f.admin)).body.data).toEqual([{ id: me.id }]);
    expect((await get(path, f.admin)).headers['x-cache']).toBe('HIT');
    const theirs = await get(path, otherToken);
    expect(theirs.headers['x-cache']).toBe('MISS');
    expect(theirs.body.data).toEqual([{ id: other }]);
  });

  it('keeps roles and the public apart', async () => {
    const path = '/items/notes?fields=body';
    expect((await get(path)).status).toBe(403);
    expect((await get(path, f.tokens.writer)).status).toBe(200);
    expect((await get(path)).status).toBe(403);
  });

  it('does not cache reads whose rules use $NOW', async () => {
    const role = (await f.send('post', '/roles', { name: 'Timed', app_access: false, admin_access: false })).id as string;
    await f.send('post', '/users', { email: 'timed@example.com', password: 'timed-password-1', role });
    await f.send('post', '/permissions', { role, collection: 'authors', action: 'read', fields: ['*'], permissions: {} });
    await f.send('post', '/collections', { collection: 'events', fields: [{ field: 'starts', type: 'timestamp' }] });
    await f.send('post', '/permissions', { role, collection: 'events', action: 'read', fields: ['*'], permissions: { starts: { _lte: '$NOW' } } });
    const token = await f.t.login('timed@example.com', 'timed-password-1');
    const first = await get('/items/authors?fields=name', token);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBeUndefined();
    expect((await get('/items/authors?fields=name', token)).headers['x-cache']).toBeUndefined();
    expect((await get('/items/events', token)).headers['x-cache']).toBeUndefined();
    // The same read by a role without $NOW rules is cached.
    await get('/items/authors?fields=name', f.tokens.writer);
    expect((await get('/items/authors?fields=name', f.tokens.writer)).headers['x-cache']).toBe('HIT');
  });
});

describe('purges', () => {
  it('purges a collection after a write to it', async () => {
    const path = '/items/articles?fields=id,title&sort=id';
    await get(path);
    expect((await get(path)).headers['x-cache']).toBe('HIT');
    await f.send('patch', `/items/articles/${f.ids.articles[0]}`, { title: 'First (edited)' });
    const after = await get(path);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.body.data[0].title).toBe('First (edited)');
  });

  it('purges reads that joined a written collection (m2o, o2m, m2m)', async () => {
    const m2o = '/items/articles?fields=title,author.name&sort=id';
    const o2m = `/items/authors/${f.ids.authors[0]}?fields=name,articles.title`;
    const m2m = `/items/articles/${f.ids.articles[0]}?fields=tags.tags_id.label`;
    for (const path of [m2o, o2m, m2m]) {
      await get(path, f.tokens.writer);
      expect((await get(path, f.tokens.writer)).headers['x-cache']).toBe('HIT');
    }
    await f.send('patch', `/items/authors/${f.ids.authors[0]}`, { name: 'Ada Lovelace' });
    expect((await get(m2o, f.tokens.writer)).body.data[0].author.name).toBe('Ada Lovelace');
    await f.send('patch', `/items/articles/${f.ids.articles[0]}`, { title: 'First again' });
    expect((await get(o2m, f.tokens.writer)).body.data.articles.map((a: { title: string }) => a.title)).toContain('First again');
    await f.send('patch', `/items/tags/${f.ids.tags[0]}`, { label: 'breaking' });
    expect((await get(m2m, f.tokens.writer)).body.data.tags[0].tags_id.label).toBe('breaking');
  });

  it('purges aggregates when an item is created or deleted', async () => {
    const path = '/items/articles?aggregate[count]=*';
    const before = Number((await get(path, f.admin)).body.data[0].count);
    expect((await get(path, f.admin)).headers['x-cache']).toBe('HIT');
    const created = await f.send('post', '/items/articles', { title: 'Counted', status: 'draft' });
    expect(Number((await get(path, f.admin)).body.data[0].count)).toBe(before + 1);
    await f.send('delete', `/items/articles/${created.id}`);
    expect(Number((await get(path, f.admin)).body.data[0].count)).toBe(before);
  });

  it('purges everything when permissions change', async () => {
    const path = '/items/articles?fields=title&sort=id';
    const before = await get(path, f.tokens.writer);
    expect(before.body.data.map((a: { title: string }) => a.title)).not.toContain('Hidden');
    expect((await get(path, f.tokens.writer)).headers['x-cache']).toBe('HIT');
    const permissions = await get(`/permissions?filter[role][_eq]=${f.ids.writerRole}&filter[collection][_eq]=articles&fields=id`, f.admin);
    await f.send('patch', `/permissions/${permissions.body.data[0].id}`, { permissions: {} });
    const after = await get(path, f.tokens.writer);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.body.data.map((a: { title: string }) => a.title)).toContain('Hidden');
    await f.send('patch', `/permissions/${permissions.body.data[0].id}`, { permissions: { status: { _eq: 'published' } } });
    expect((await get(path, f.tokens.writer)).body.data.map((a: { title: string }) => a.title)).not.toContain('Hidden');
  });

  it('purges everything on a schema change and on /utils/cache/clear', async () => {
    const path = '/items/authors?fields=*&sort=id';
    await get(path);
    expect((await get(path)).headers['x-cache']).toBe('HIT');
    await f.send('post', '/fields/authors', { field: 'bio', type: 'string' });
    const after = await get(path);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(Object.keys(after.body.data[0])).toContain('bio');
    expect((await get(path)).headers['x-cache']).toBe('HIT');
    await f.send('post', '/utils/cache/clear');
    expect((await get(path)).headers['x-cache']).toBe('MISS');
  });

  it('purges what a write outside HTTP changed (the items service used directly)', async () => {
    const path = '/items/authors?fields=name&sort=id';
    await get(path);
    expect((await get(path)).headers['x-cache']).toBe('HIT');
    const { ItemsService } = await import('../../../server/services/items/items-service.ts');
    const service = new ItemsService('authors', { ...f.t.system, schema: await f.t.context.schema.get() });
    await service.updateOne(f.ids.authors[1]!, { name: 'Brian (service)' });
    expect((await get(path)).body.data[1].name).toBe('Brian (service)');
  });

  it('purges what a bulk write through /utils/import changed', async () => {
    const path = '/items/tags?fields=label&sort=id';
    await get(path, f.tokens.writer);
    const response = await f.t.request
      .post('/utils/import/tags')
      .set(f.as(f.admin))
      .attach('file', Buffer.from(JSON.stringify([{ label: 'imported' }])), { filename: 'tags.json', contentType: 'application/json' });
    expect([200, 204]).toContain(response.status);
    expect((await get(path, f.tokens.writer)).body.data.map((t: { label: string }) => t.label)).toContain('imported');
  });
});

describe('with the cache off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(() => off?.close());

  it('adds nothing: no x-cache, no ETag, no 304', async () => {
    const token = await off.login();
    const first = await off.request.get('/roles?fields=name').set({ Authorization: `Bearer ${token}` });
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBeUndefined();
    expect(first.headers.etag).toBeUndefined();
    const again = await off.request.get('/roles?fields=name').set({ Authorization: `Bearer ${token}`, 'If-None-Match': '*' });
    expect(again.status).toBe(200);
  });
});
