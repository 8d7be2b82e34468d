import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouters } from '../../../server/app-routers.ts';
import { underPrefix } from '../../../server/lazy-router.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * One request per lazily loaded router (server/app-routers.ts, in its order), each the first its router
 * sees in this app, and the status its route answers with: a router that did not load, or a prefix that
 * misses the path, would end in the app's final 404 "Route … doesn't exist." instead.
 */
const FIRST_REQUESTS: { router: string; method: 'get' | 'post'; path: string; body?: object; status: number }[] = [
  { router: 'auth', method: 'post', path: '/auth/refresh', body: {}, status: 400 },
  { router: 'auth pages', method: 'get', path: '/auth/providers', status: 200 },
  { router: 'oidc', method: 'get', path: '/auth/login/nowhere', status: 404 },
  { router: 'tfa', method: 'post', path: '/users/me/tfa/generate', body: {}, status: 400 },
  { router: 'users', method: 'get', path: '/users/me', status: 200 },
  { router: 'permissions', method: 'get', path: '/permissions/me', status: 200 },
  { router: 'shares', method: 'get', path: `/shares/info/${UNKNOWN_ID}`, status: 403 },
  { router: 'password', method: 'post', path: '/auth/password/request', body: {}, status: 400 },
  { router: 'invite', method: 'post', path: '/users/invite', body: {}, status: 400 },
  { router: 'registration', method: 'post', path: '/users/register', body: {}, status: 400 },
  { router: 'collections', method: 'get', path: '/collections', status: 200 },
  { router: 'fields', method: 'get', path: '/fields', status: 200 },
  { router: 'relations', method: 'get', path: '/relations', status: 200 },
  { router: 'schema', method: 'get', path: '/schema/snapshot', status: 200 },
  { router: 'items', method: 'get', path: '/items/no_such_collection', status: 403 },
  { router: 'files', method: 'post', path: '/files/import', body: {}, status: 400 },
  { router: 'assets', method: 'get', path: `/assets/${UNKNOWN_ID}`, status: 403 },
  { router: 'folders', method: 'post', path: '/folders', body: { name: 'first' }, status: 200 },
  { router: 'import/export', method: 'post', path: '/utils/export/no_such_collection', body: {}, status: 403 },
  { router: 'webhooks', method: 'get', path: `/webhooks/${UNKNOWN_ID}/deliveries`, status: 403 },
  { router: 'versions', method: 'post', path: '/versions', body: {}, status: 400 },
  { router: 'comments', method: 'get', path: '/activity/comment', status: 400 },
  { router: 'flows', method: 'get', path: `/flows/${UNKNOWN_ID}/runs?limit=0`, status: 400 },
  { router: 'extensions', method: 'get', path: '/extensions', status: 200 },
  { router: 'system collections', method: 'get', path: '/roles', status: 200 },
  { router: 'utils', method: 'get', path: '/utils/random/string', status: 200 },
  { router: 'graphql', method: 'get', path: '/server/specs/graphql/system', status: 200 },
  { router: 'index advice', method: 'get', path: '/utils/index-advice', status: 200 },
  { router: 'autocomplete', method: 'get', path: '/utils/autocomplete/no_such_collection/no_field', status: 403 },
  { router: 'insights', method: 'get', path: `/dashboards/${UNKNOWN_ID}/data`, status: 403 },
  { router: 'openapi', method: 'get', path: '/server/specs/oas', status: 200 },
];

describe('flows without their router', () => {
  let test: TestApp;
  afterAll(async () => {
    await test?.context.events.idle();
    await test?.close();
  });

  it('an event filter flow runs on a write although no request under /flows loaded the flows router', async () => {
    test = await createTestApp();
    const token = await test.login();
    const auth = { authorization: `Bearer ${token}` };
    await test.request.post('/collections').set(auth).send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    // Written through the services: a request under /flows would load the flows router.
    const services = (collection: string) => async () => new ItemsService(collection, { ...test.system, schema: await test.context.schema.get() });
    const flow = await (await services('tessera_flows')()).createOne({ name: 'shout', status: 'active', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['notes'] } });
    const operation = await (await services('tessera_operations')()).createOne({ key: 'upper', type: 'transform', options: { json: { title: 'UPPER {{ $trigger.payload.title }}' } }, position_x: 1, position_y: 1, flow });
    await (await services('tessera_flows')()).updateOne(flow, { operation });
    await test.context.events.idle();
    const created = (await test.request.post('/items/notes').set(auth).send({ title: 'calm' }).expect(200)).body.data;
    expect(created.title).toBe('UPPER calm');
  });
});

describe('routers loaded on first use', () => {
  let test: TestApp;
  let token: string;
  beforeAll(async () => {
    test = await createTestApp();
    token = await test.login();
  });
  afterAll(() => test?.close());

  it('answers the first request to each router with its route, not ROUTE_NOT_FOUND', async () => {
    expect(FIRST_REQUESTS).toHaveLength(appRouters(test.context).length);
    for (const { router, method, path, body, status } of FIRST_REQUESTS) {
      const request = test.request[method](path).set('authorization', `Bearer ${token}`);
      const response = body ? await request.send(body) : await request;
      expect({ router, status: response.status }).toEqual({ router, status });
      expect(response.body?.errors?.[0]?.message ?? '').not.toBe(`Route ${path.split('?')[0]} doesn't exist.`);
    }
  });

  it('an unknown path under a lazy prefix and one under none still get 404 ROUTE_NOT_FOUND', async () => {
    for (const path of ['/items', '/utils/no-such-util', '/nowhere']) {
      const response = await test.request.get(path).set('authorization', `Bearer ${token}`);
      expect({ path, status: response.status, code: response.body.errors?.[0]?.extensions?.code }).toEqual({ path, status: 404, code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('every route of every lazy router lies under the prefixes it is mounted with', async () => {
    for (const entry of appRouters(test.context)) {
      const router = await entry.load();
      // A router-level middleware's path is its prefix as a pattern: `/auth(?:\/|$)`.
      const paths = router.stack.map((layer) => String(layer.path).replace('(?:\\/|$)', ''));
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((path) => !underPrefix(path, entry.prefixes))).toEqual([]);
    }
  });
});
