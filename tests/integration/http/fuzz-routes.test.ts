import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouters } from '../../../server/app-routers.ts';
import { createFlow } from '../flows/flow-fixture.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { encode, Generator } from '../query/fuzz-generator.ts';

/**
 * Hostile input on every route, the ones added after fuzz-input.test.ts (GraphQL, flows and their triggers,
 * webhooks, versions, comments, Insights, cache, index advice) included: prototype-named keys in every JSON
 * body every route takes, and seeded generated bodies and query strings on the newer routes. Whatever the
 * input, the answer is never a 5xx. FUZZ_SEED=<seed> reruns the same inputs.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);

/** Keys a plain object answers without holding them, as a JSON body makes them (own keys, `__proto__` too). */
const PROTOTYPE_KEYS = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'];

let t: TestApp;
let token: string;
const ids: Record<string, string> = {};
const auth = () => ({ Authorization: `Bearer ${token}` });

/**
 * JSON text of `base` with `key` as an own member (JSON.stringify would drop a `__proto__` set by assignment):
 * at the top, or inside each of `members` (each then an object holding it).
 */
function withKey(base: Record<string, unknown>, key: string, value: unknown, members: readonly string[] = []): string {
  const inner = `{${JSON.stringify(key)}:${JSON.stringify(value)}}`;
  const parts = Object.entries(base).filter(([name]) => !members.includes(name)).map(([name, item]) => `${JSON.stringify(name)}:${JSON.stringify(item)}`);
  if (members.length === 0) parts.unshift(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  for (const member of members) parts.push(`${JSON.stringify(member)}:${inner}`);
  return `{${parts.join(',')}}`;
}

/** POSTs as the admin and answers the created row's id (the failure shows the answer). */
async function created(path: string, body: object): Promise<string> {
  const response = await t.request.post(path).set(auth()).send(body);
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return String(response.body.data.id);
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'things', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }, { field: 'n', type: 'integer' }, { field: 'data', type: 'json' }] }).expect(200);
  await t.request.post('/items/things').set(auth()).send([{ title: 'one', n: 1 }, { title: 'two', n: 2 }]).expect(200);
  ids.manual = (await createFlow(t, token, { name: 'button', trigger: 'manual', options: { collections: ['things'] } }, [{ key: 'log', type: 'log', options: { message: '{{ $trigger.body.constructor }}' } }])).id;
  ids.hook = (await createFlow(t, token, { name: 'hook', trigger: 'webhook', options: { method: 'POST' } }, [{ key: 'echo', type: 'transform', options: { json: { got: '{{ $trigger.body.toString }}' } } }])).id;
  ids.getHook = (await createFlow(t, token, { name: 'get hook', trigger: 'webhook', options: { method: 'GET' } }, [{ key: 'log', type: 'log', options: { message: 'x' } }])).id;
  ids.webhook = await created('/webhooks', { name: 'w', url: 'https://example.com/hook', actions: ['create'], collections: ['things'], status: 'inactive' });
  ids.version = await created('/versions', { key: 'draft', collection: 'things', item: '1' });
  ids.comment = await created('/activity/comment', { collection: 'things', item: '1', comment: 'hello' });
  ids.dashboard = await created('/dashboards', { name: 'd' });
  ids.panel = await created('/panels', { dashboard: ids.dashboard, type: 'metric', position_x: 1, position_y: 1, width: 4, height: 4, options: { collection: 'things', field: 'n', function: 'sum', filter: { title: { _eq: '{{ who }}' } } } });
}, 60_000);
afterAll(() => t?.close());

/** A concrete path for a route pattern: its parameters filled with existing keys where the route has them. */
function concretePath(pattern: string): string {
  const prefix = pattern.split('/')[1] ?? '';
  const value = (name: string): string => {
    if (name === 'collection') return 'things';
    if (name === 'field') return 'title';
    if (name !== 'id' && name !== 'pk') return 'x';
    if (pattern.startsWith('/flows/trigger')) return ids.hook!;
    const byPrefix: Record<string, string | undefined> = { flows: ids.manual, webhooks: ids.webhook, versions: ids.version, dashboards: ids.dashboard, panels: ids.panel, activity: ids.comment, items: '1' };
    return Object.hasOwn(byPrefix, prefix) ? (byPrefix[prefix] ?? '1') : '1';
  };
  return pattern.replace(/\{[^}]*\}/g, '').replace(/:(\w+)/g, (_, name: string) => value(name));
}

/** Every route of the API taking a body (POST, PATCH, PUT), from the routers themselves. */
async function bodyRoutes(): Promise<Array<{ method: 'post' | 'patch' | 'put'; pattern: string }>> {
  const routes: Array<{ method: 'post' | 'patch' | 'put'; pattern: string }> = [];
  for (const entry of appRouters(t.context)) {
    const router = await entry.load();
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        const lower = method.toLowerCase();
        if (lower === 'post' || lower === 'patch' || lower === 'put') routes.push({ method: lower, pattern: String(layer.path) });
      }
    }
  }
  return routes;
}

/** Members many routes read: each becomes an object holding a prototype-named key. */
const MEMBERS = ['data', 'options', 'query', 'meta', 'schema', 'variables', 'filter', 'keys', 'fields', 'delta', 'payload'];
const BASE = { collection: 'things', item: '1', comment: 'hi', key: 'k2', name: 'n', type: 'metric', dashboard: '', title: 'x' };

describe(`hostile keys and bodies on every route (seed ${SEED})`, () => {
  it('covers the routes added since the first fuzz test', async () => {
    const patterns = (await bodyRoutes()).map((route) => route.pattern);
    for (const expected of ['/graphql', '/graphql/system', '/flows/trigger/:id', '/versions/:id/save', '/versions/:id/promote', '/activity/comment', '/panels/preview', '/utils/cache/clear', '/utils/index-advice/apply', '/webhooks', '/flows', '/operations', '/dashboards', '/panels']) {
      expect(patterns, expected).toContain(expected);
    }
  });

  it('refuses prototype-named body keys with a 400 naming them (the two routes found answering 500)', async () => {
    for (const [path, base] of [['/activity/comment', { collection: 'things', item: '1', comment: 'hi' }], ['/utils/index-advice/apply', { collection: 'things' }]] as const) {
      for (const key of ['constructor', 'toString', '__proto__']) {
        const response = await t.request.post(path).set(auth()).set('Content-Type', 'application/json').send(withKey(base, key, 1));
        expect(response.status, `${path} ${key}: ${JSON.stringify(response.body)}`).toBe(400);
        // The body parser itself refuses `__proto__` (secure-json-parse), before any route: no field to name.
        expect(response.body.errors[0].extensions, JSON.stringify(response.body)).toMatchObject(key === '__proto__' ? { code: 'INVALID_PAYLOAD' } : { code: 'INVALID_PAYLOAD', field: key });
      }
    }
  });

  it('refuses collections and fields named like Object.prototype members', async () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const field = await t.request.post('/fields/things').set(auth()).send({ field: name, type: 'string' });
      expect(field.status, JSON.stringify(field.body)).toBe(400);
      expect(field.body.errors[0].extensions.field).toBe('field');
      const collection = await t.request.post('/collections').set(auth()).send({ collection: name, fields: [{ field: 'title', type: 'string' }] });
      expect(collection.status, JSON.stringify(collection.body)).toBe(400);
    }
  });

  it('prototype-named keys, at the top and inside every member, on every route that takes a body: never a 5xx', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { method, pattern } of await bodyRoutes()) {
      // Skipped: signing out would end the session the rest of the test uses.
      if (pattern === '/auth/logout') continue;
      const path = concretePath(pattern);
      for (const key of PROTOTYPE_KEYS) {
        const bodies: Array<[string, Record<string, string>]> = [
          [withKey(BASE, key, 1), auth()],
          [withKey({}, key, { a: 1 }), auth()],
          [withKey(BASE, key, 'x', MEMBERS), auth()],
          [withKey(BASE, key, 'x', MEMBERS.slice(0, 4)), auth()],
          [withKey(BASE, key, 1), {}],
        ];
        for (const [body, caller] of bodies) {
          const response = await t.request[method](path).set(caller).set('Content-Type', 'application/json').send(body);
          sent++;
          if (response.status >= 500) failures.push(`${method.toUpperCase()} ${path} ${body} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 600_000);

  it('generated bodies and query strings on GraphQL, flows, webhooks, versions, comments, Insights, cache and index advice: never a 5xx', async () => {
    const generate = new Generator(SEED);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const hostile = (): unknown => (generate.chance(0.5) ? generate.payload() : generate.value());
    const targets: Array<() => { method: 'get' | 'post' | 'patch'; path: string; body?: unknown }> = [
      () => ({ method: 'post', path: '/graphql', body: { query: generate.pick(['{ things { id } }', 'query ($f: things_filter) { things(filter: $f) { id title } }', 'query ($s: String) { things(search: $s) { id } }', '{ things_aggregated { count { id } } }', '']), variables: { f: generate.filter(), s: generate.pick(['a', 'nul\u0000byte', '%']) }, operationName: generate.chance(0.8) ? undefined : hostile() } }),
      () => ({ method: 'post', path: '/graphql/system', body: { query: generate.pick(['{ users_me { id } }', 'query ($f: directus_users_filter) { users(filter: $f) { id } }', '{ server_info { project { project_name } } }']), variables: { f: generate.filter() } } }),
      () => ({ method: 'get', path: `/graphql?query=${encode(generate.pick(['{ things { id } }', '{ nope }', '']))}&variables=${encode(JSON.stringify(hostile()) ?? '')}` }),
      () => ({ method: 'post', path: `/flows/trigger/${ids.manual}`, body: generate.chance(0.5) ? { collection: 'things', keys: generate.pick([[1], ['1'], [], [{}], 'constructor', null]) } : hostile() }),
      () => ({ method: 'post', path: `/flows/trigger/${ids.hook}?${generate.queryString(generate.query())}`, body: hostile() }),
      () => ({ method: 'get', path: `/flows/trigger/${ids.getHook}?${generate.queryString(generate.query())}` }),
      () => ({ method: 'get', path: `/flows/${ids.manual}/runs?${generate.queryString({ limit: generate.pick([1, -1, 'x', 'constructor']), page: generate.value() })}` }),
      () => ({ method: 'post', path: '/flows', body: { name: 'f', trigger: generate.pick(['manual', 'webhook', 'event', 'schedule', 'constructor']), status: 'inactive', options: hostile() } }),
      () => ({ method: 'post', path: '/operations', body: { key: 'k', type: generate.pick(['log', 'transform', 'constructor', 'toString', 'request', 'item-read']), options: hostile(), position_x: 1, position_y: 1, flow: ids.manual } }),
      () => ({ method: 'post', path: '/webhooks', body: { name: 'w', url: generate.pick(['https://example.com', 'http://127.0.0.1', 'constructor']), actions: generate.pick([['create'], ['constructor'], 'x']), collections: generate.pick([['things'], ['constructor'], ['__proto__']]), headers: hostile(), status: 'inactive' } }),
      () => ({ method: 'get', path: `/webhooks/${ids.webhook}/deliveries?${generate.queryString(generate.query())}` }),
      () => ({ method: 'post', path: '/versions', body: { key: generate.pick(['v1', 'constructor', '__proto__', '']), collection: generate.pick(['things', 'constructor', 'toString']), item: generate.pick(['1', 'constructor', 1]) } }),
      () => ({ method: 'post', path: `/versions/${ids.version}/save`, body: hostile() }),
      () => ({ method: 'post', path: `/versions/${ids.version}/promote`, body: { fields: generate.pick([['title'], ['constructor'], ['toString', '__proto__'], 'x']), mainHash: generate.pick(['x', undefined]) } }),
      () => ({ method: 'get', path: `/versions/${ids.version}/compare?${generate.queryString(generate.query())}` }),
      () => ({ method: 'get', path: `/items/things/1?version=${encode(generate.pick(['draft', 'constructor', '__proto__', 'main']))}` }),
      () => ({ method: 'post', path: '/activity/comment', body: { collection: generate.pick(['things', 'constructor', 'toString', '__proto__']), item: generate.pick(['1', 'constructor', 1, {}]), comment: generate.pick(['hi @constructor', 'x', '', 'nul\u0000byte']) } }),
      () => ({ method: 'patch', path: `/activity/comment/${ids.comment}`, body: hostile() }),
      () => ({ method: 'get', path: `/activity/comment?collection=${encode(generate.pick(['things', 'constructor', '__proto__']))}&item=${encode(generate.pick(['1', 'toString']))}` }),
      () => ({ method: 'get', path: `/activity/comment/mentionable?collection=things&item=1&search=${encode(String(generate.value()))}` }),
      () => ({ method: 'post', path: '/panels/preview', body: { type: generate.pick(['metric', 'list', 'constructor', 'toString', 'time-series']), options: generate.chance(0.5) ? { collection: generate.pick(['things', 'constructor']), field: generate.pick(['n', 'constructor']), function: generate.pick(['sum', 'constructor', 'toString']), filter: generate.filter(), precision: generate.pick(['day', 'constructor']), displayTemplate: '{{ constructor }}' } : hostile() } }),
      () => ({ method: 'get', path: `/dashboards/${ids.dashboard}/data?variables=${encode(JSON.stringify(generate.chance(0.5) ? { who: generate.value(), constructor: 1 } : hostile()) ?? '')}` }),
      () => ({ method: 'post', path: '/panels', body: { dashboard: ids.dashboard, type: generate.pick(['metric', 'constructor']), options: hostile(), position_x: 1, position_y: 1, width: 2, height: 2 } }),
      () => ({ method: 'post', path: '/utils/cache/clear', body: hostile() }),
      () => ({ method: 'get', path: `/utils/index-advice?${generate.queryString(generate.query())}` }),
      () => ({ method: 'post', path: '/utils/index-advice/apply', body: generate.chance(0.5) ? { collection: generate.pick(['things', 'constructor']), fields: generate.pick([['title'], ['constructor'], ['toString', 'n']]) } : hostile() }),
    ];
    for (let index = 0; index < 600; index++) {
      const { method, path: fullPath, body } = generate.pick(targets)();
      // Past ~8 KB a URL is refused by the HTTP parser before any route runs.
      const path = fullPath.slice(0, 7000);
      const caller = generate.chance(0.85) ? auth() : {};
      let request = t.request[method](path).set(caller);
      if (body !== undefined) request = request.set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null');
      const response = await request;
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status >= 500) failures.push(`seed ${SEED} #${index}: ${method.toUpperCase()} ${path.slice(0, 300)} ${JSON.stringify(body)?.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(statuses[200] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(50);
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(50);
  }, 600_000);
});
