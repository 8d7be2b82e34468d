import { afterAll, describe, expect, it } from 'vitest';
import { createCacheFixture, type CacheFixture } from './cache-fixture.ts';

/** The documented settings and cases of docs/cache.md that the main cache test does not send (issue 37 item 4). */
describe('response cache settings', () => {
  const fixtures: CacheFixture[] = [];
  afterAll(async () => {
    for (const fixture of fixtures) await fixture.t.close();
  });
  const fixture = async (env: Record<string, string> = {}) => {
    const created = await createCacheFixture(env);
    fixtures.push(created);
    return created;
  };

  it('CACHE_AUTO_PURGE=false: an item write leaves the kept answer until the TTL, a permission change still purges', async () => {
    const f = await fixture({ CACHE_AUTO_PURGE: 'false' });
    const path = '/items/authors?sort=id&fields=id,name';
    const before = await f.t.request.get(path).set(f.as(f.admin)).expect(200);
    expect((await f.t.request.get(path).set(f.as(f.admin))).headers['x-cache']).toBe('HIT');
    await f.send('patch', `/items/authors/${f.ids.authors[0]}`, { name: 'Renamed without purge' });
    const stale = await f.t.request.get(path).set(f.as(f.admin)).expect(200);
    expect(stale.headers['x-cache']).toBe('HIT');
    expect(stale.body).toEqual(before.body);
    await f.send('post', '/permissions', { role: f.ids.writerRole, collection: 'authors', action: 'create', fields: ['*'] });
    const fresh = await f.t.request.get(path).set(f.as(f.admin)).expect(200);
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(fresh.body.data[0].name).toBe('Renamed without purge');
  });

  it('CACHE_MAX_ENTRY_SIZE: a body above it is served, never kept; a smaller one is kept', async () => {
    const f = await fixture({ CACHE_MAX_ENTRY_SIZE: '100' });
    const large = '/items/articles?sort=id&fields=id,title,status,author';
    const small = '/items/authors?limit=1&fields=id';
    const first = await f.t.request.get(large).set(f.as(f.admin)).expect(200);
    expect(JSON.stringify(first.body).length).toBeGreaterThan(100);
    expect((await f.t.request.get(large).set(f.as(f.admin))).headers['x-cache']).toBe('MISS');
    await f.t.request.get(small).set(f.as(f.admin)).expect(200);
    expect((await f.t.request.get(small).set(f.as(f.admin))).headers['x-cache']).toBe('HIT');
  });

  it('never keeps exports; SEARCH reads are kept like the GET of the same query', async () => {
    const f = await fixture();
    const exported = '/items/authors?fields=id,name&export=json';
    const first = await f.t.request.get(exported).set(f.as(f.admin)).expect(200);
    expect(first.headers['content-disposition']).toMatch(/attachment/);
    expect((await f.t.request.get(exported).set(f.as(f.admin))).headers['x-cache']).not.toBe('HIT');
    const search = () => f.t.request.search('/items/authors').set(f.as(f.admin)).send({ query: { fields: ['id', 'name'], sort: ['id'] } });
    expect((await search().expect(200)).headers['x-cache']).toBe('MISS');
    const again = await search().expect(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.body.data.length).toBeGreaterThan(0);
  });

  it('a version save purges the ?version= reads of its item', async () => {
    const f = await fixture();
    await f.send('patch', '/collections/authors', { meta: { versioning: true } });
    const version = await f.send('post', '/versions', { key: 'draft', collection: 'authors', item: f.ids.authors[0] });
    const path = `/items/authors/${f.ids.authors[0]}?version=draft&fields=id,name`;
    await f.t.request.get(path).set(f.as(f.admin)).expect(200);
    expect((await f.t.request.get(path).set(f.as(f.admin))).headers['x-cache']).toBe('HIT');
    await f.send('post', `/versions/${version.id}/save`, { name: 'Drafted name' });
    const after = await f.t.request.get(path).set(f.as(f.admin)).expect(200);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.body.data.name).toBe('Drafted name');
  });
});
