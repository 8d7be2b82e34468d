import {
  authentication,
  compareContentVersion,
  createContentVersion,
  createDirectus,
  promoteContentVersion,
  readItem,
  rest,
  saveToContentVersion,
  type RestClient,
} from '@directus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/** The Directus SDK's content-version commands against Tessera over HTTP (docs/versions.md). */
describe('content versions through @directus/sdk', () => {
  let t: TestApp;
  let server: Listening;
  let client: RestClient<any> & { login: (payload: { email: string; password: string }) => Promise<unknown>; stopRefreshing: () => void };

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    client = createDirectus<any>(server.url).with(rest()).with(authentication('json')) as unknown as typeof client;
    await client.login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    const admin = await t.login();
    await t.request.post('/collections').set({ Authorization: `Bearer ${admin}` }).send({ collection: 'pages', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/items/pages').set({ Authorization: `Bearer ${admin}` }).send({ title: 'Home' }).expect(200);
  });
  afterAll(async () => {
    client?.stopRefreshing();
    await server?.close();
    await t?.close();
  });

  it('creates, saves, reads with version, compares and promotes', async () => {
    const version = await client.request(createContentVersion({ key: 'draft', name: 'Draft', collection: 'pages', item: '1' }));
    expect(version).toMatchObject({ key: 'draft', collection: 'pages', item: '1' });
    const saved = await client.request(saveToContentVersion(version.id, { title: 'Home, drafted' }));
    expect(saved).toMatchObject({ id: 1, title: 'Home, drafted' });
    expect(await client.request(readItem('pages', 1, { version: 'draft' } as never))).toMatchObject({ id: 1, title: 'Home, drafted' });
    expect(await client.request(readItem('pages', 1))).toMatchObject({ id: 1, title: 'Home' });
    const compared = await client.request(compareContentVersion(version.id));
    expect(compared).toMatchObject({ outdated: false, current: { title: 'Home, drafted' }, main: { id: 1, title: 'Home' } });
    expect(await client.request(promoteContentVersion(version.id, compared.mainHash))).toBe(1);
    expect(await client.request(readItem('pages', 1))).toMatchObject({ title: 'Home, drafted' });
  });
});
