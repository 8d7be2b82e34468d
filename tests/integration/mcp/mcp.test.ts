import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { appRouters } from '../../../server/app-routers.ts';
import { underPrefix } from '../../../server/lazy-router.ts';
import { createRateLimit, type RateLimit } from '../../../server/middleware/rate-limit.ts';
import { eventually } from '../../helpers/eventually.ts';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from '../flows/flow-fixture.ts';

let t: TestApp;
let served: Listening;
let adminToken: string;
let editorToken: string;
let fileServer: Server;
let fileUrl: string;
const closers: Array<() => Promise<unknown>> = [];
const clients: Client[] = [];
const articleIds: Record<string, number> = {};

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An MCP client of the official SDK, connected to `url`/mcp with `token`. */
async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'tessera-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: auth(token) } }));
  clients.push(client);
  return client;
}

/** Calls a tool and returns its JSON answer; `isError` tells whether it failed. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: any }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // A validation message of the SDK is plain text.
  }
  return { isError: result.isError === true, data };
}

function errorOf(answer: { isError: boolean; data: any }): { code: string; field?: string; message: string } {
  expect(answer.isError).toBe(true);
  const [error] = answer.data.errors;
  return { code: error.extensions.code, field: error.extensions.field, message: error.message };
}

async function activityOf(collection: string, item: string | number) {
  const query = `/activity?filter[collection][_eq]=${collection}&filter[item][_eq]=${item}&fields=action,origin,user&sort=id`;
  return (await t.request.get(query).set(auth(adminToken)).expect(200)).body.data as Array<{ action: string; origin: string | null }>;
}

beforeAll(async () => {
  t = await createTestApp({ MCP_ENABLED: 'true', MCP_ALLOW_WRITES: 'true', FILES_IMPORT_ALLOWED_HOSTS: '*', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  served = await listen(t);
  adminToken = await t.login();
  const admin = auth(adminToken);
  await t.request.post('/collections').set(admin).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(admin).send({ collection: 'payroll', fields: [{ field: 'salary', type: 'integer' }] }).expect(200);
  for (const [title, status] of [['First', 'published'], ['Second', 'published'], ['Hidden draft', 'draft']]) {
    articleIds[title!] = (await t.request.post('/items/articles').set(admin).send({ title, status }).expect(200)).body.data.id;
  }
  await t.request.post('/items/payroll').set(admin).send({ salary: 100 }).expect(200);
  // An editor who reads and updates published articles only, and may not see payroll at all.
  const role = (await t.request.post('/roles').set(admin).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
  for (const action of ['read', 'update']) {
    await t.request.post('/permissions').set(admin).send({ role, collection: 'articles', action, fields: '*', permissions: { status: { _eq: 'published' } } }).expect(200);
  }
  await t.request.post('/users').set(admin).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200);
  editorToken = await t.login('editor@example.com', 'editor-password-1');
  // A small file for imports, served on 127.0.0.1 (a loopback address: reachable only because OUTBOUND_ALLOWED_HOSTS lists it).
  fileServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('hello from a remote host'));
  await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
  fileUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/notes.txt`;
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const close of closers.reverse()) await close();
  await new Promise((resolve) => fileServer?.close(resolve));
  await served?.close();
  await t?.context.events.idle();
  await t?.close();
});

describe('an administrator through an MCP client', () => {
  it('lists the tools and resources, reads the schema and items with the query language', async () => {
    const client = await connect(served.url, adminToken);
    expect(client.getServerVersion()?.name).toBe('tessera');
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual(['collections', 'fields', 'files', 'flows', 'items', 'relations', 'schema', 'trigger-flow']);

    const schema = await call(client, 'schema', {});
    expect(schema.data.collections).toEqual(expect.arrayContaining(['articles', 'payroll']));
    expect(schema.data.collections.some((name: string) => name.startsWith('tessera_'))).toBe(false);
    const detail = await call(client, 'schema', { keys: ['articles'] });
    expect(detail.data.articles).toMatchObject({ id: { type: 'integer', primary_key: true }, title: { type: 'string' }, status: { type: 'string' } });
    expect((await call(client, 'fields', { action: 'read', collection: 'articles', field: 'title' })).data).toMatchObject({ collection: 'articles', field: 'title', type: 'string' });
    expect((await call(client, 'collections', { action: 'read', keys: ['payroll'] })).data).toEqual([expect.objectContaining({ collection: 'payroll' })]);

    const read = await call(client, 'items', { action: 'read', collection: 'articles', query: { fields: ['title'], filter: { status: { _eq: 'published' } }, sort: ['-title'], meta: 'filter_count' } });
    expect(read).toEqual({ isError: false, data: { data: [{ title: 'Second' }, { title: 'First' }], meta: { filter_count: 2 } } });
    expect((await call(client, 'items', { action: 'read', collection: 'articles', keys: [articleIds['Hidden draft']], query: { fields: 'status' } })).data).toEqual([{ status: 'draft' }]);
    // Arguments the tool does not take are refused by the SDK's validation, naming the argument.
    const badAction = await call(client, 'items', { action: 'fly', collection: 'articles' });
    expect(badAction.isError).toBe(true);
    expect(String(badAction.data)).toMatch(/Invalid arguments for tool items[\s\S]*action/);
    const badQuery = errorOf(await call(client, 'items', { action: 'read', collection: 'articles', query: { filter: { nope: { _eq: 1 } } } }));
    expect(badQuery.code).toBe('INVALID_QUERY');
    // System collections are not items of this tool, as on /items.
    expect(errorOf(await call(client, 'items', { action: 'read', collection: 'tessera_users' })).code).toBe('FORBIDDEN');

    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(expect.arrayContaining(['tessera://schema', 'tessera://schema/articles', 'tessera://schema/payroll']));
    const overview = await client.readResource({ uri: 'tessera://schema' });
    expect(JSON.parse(String((overview.contents[0] as { text: string }).text)).collections).toEqual(expect.arrayContaining(['articles', 'payroll']));
  });

  it('writes only with "confirm": true, and every write is in activity with origin mcp', async () => {
    const client = await connect(served.url, adminToken);
    const unconfirmed = errorOf(await call(client, 'items', { action: 'create', collection: 'articles', data: { title: 'Guess', status: 'draft' } }));
    expect(unconfirmed).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'confirm' });
    expect((await t.request.get('/items/articles?filter[title][_eq]=Guess').set(auth(adminToken)).expect(200)).body.data).toEqual([]);

    const created = await call(client, 'items', { action: 'create', collection: 'articles', data: [{ title: 'Agent one', status: 'draft' }, { title: 'Agent two', status: 'draft' }], query: { fields: ['id', 'title'] }, confirm: true });
    expect(created.isError).toBe(false);
    expect(created.data.map((item: { title: string }) => item.title)).toEqual(['Agent one', 'Agent two']);
    const [one, two] = created.data.map((item: { id: number }) => item.id);
    const updated = await call(client, 'items', { action: 'update', collection: 'articles', keys: [one], data: { status: 'published' }, confirm: true });
    expect(updated.data).toEqual([expect.objectContaining({ id: one, status: 'published' })]);
    expect((await call(client, 'items', { action: 'delete', collection: 'articles', keys: [two], confirm: true })).data).toEqual([two]);
    await t.request.get(`/items/articles/${two}`).set(auth(adminToken)).expect(403);

    expect(await activityOf('articles', one)).toEqual([expect.objectContaining({ action: 'create', origin: 'mcp' }), expect.objectContaining({ action: 'update', origin: 'mcp' })]);
    expect(await activityOf('articles', two)).toEqual([expect.objectContaining({ action: 'create', origin: 'mcp' }), expect.objectContaining({ action: 'delete', origin: 'mcp' })]);
    // The same write over REST keeps the request's own origin.
    const rest = (await t.request.post('/items/articles').set(auth(adminToken)).send({ title: 'REST', status: 'draft' }).expect(200)).body.data.id;
    expect((await activityOf('articles', rest)).map((row) => row.origin)).toEqual([null]);
  });

  it('lists and reads files, and imports one by URL through the outbound guard', async () => {
    const client = await connect(served.url, adminToken);
    const imported = await call(client, 'files', { action: 'import', data: [{ url: fileUrl, file: { title: 'Remote notes' } }], query: { fields: ['id', 'title', 'type', 'filesize'] }, confirm: true });
    expect(imported.isError).toBe(false);
    expect(imported.data).toEqual([{ id: expect.any(String), title: 'Remote notes', type: 'text/plain', filesize: '24' }]);
    const listed = await call(client, 'files', { action: 'read', query: { fields: ['title'], filter: { type: { _eq: 'text/plain' } } } });
    expect(listed.data).toEqual([{ title: 'Remote notes' }]);
    expect((await activityOf('tessera_files', imported.data[0].id)).map((row) => row.origin)).toEqual(['mcp']);
    // Any host may be imported from here, but the outbound guard still refuses private and metadata addresses.
    for (const url of ['http://10.0.0.1/notes.txt', 'http://169.254.169.254/latest/meta-data']) {
      const refused = errorOf(await call(client, 'files', { action: 'import', data: [{ url }], confirm: true }));
      expect(refused).toMatchObject({ code: 'FORBIDDEN', field: 'url' });
      expect(refused.message).toContain('is not allowed');
    }
    expect((await call(client, 'files', { action: 'read', query: { aggregate: { count: ['*'] } } })).data).toEqual([{ count: 1 }]);
  });

  it('lists flows and triggers a manual flow, which runs as the caller with origin mcp', async () => {
    const client = await connect(served.url, adminToken);
    const { id } = await createFlow(t, adminToken, { name: 'unpublish', trigger: 'manual', accountability: 'activity', options: { collections: ['articles'] } }, [
      { key: 'unpublish', type: 'item-update', options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { status: 'archived' }, permissions: '$trigger' } },
    ]);
    const flows = await call(client, 'flows', { action: 'read', query: { filter: { trigger: { _eq: 'manual' } } } });
    expect(flows.data).toEqual([expect.objectContaining({ id, name: 'unpublish', trigger: 'manual', status: 'active' })]);
    expect(errorOf(await call(client, 'trigger-flow', { id, collection: 'articles', keys: [articleIds.First] })).field).toBe('confirm');
    expect(errorOf(await call(client, 'trigger-flow', { id, collection: 'payroll', keys: [1], confirm: true })).field).toBe('collection');
    expect(await call(client, 'trigger-flow', { id, collection: 'articles', keys: [articleIds.First], confirm: true })).toEqual({ isError: false, data: { started: true, flow: id } });
    await eventually(async () => expect((await t.request.get(`/items/articles/${articleIds.First}`).set(auth(adminToken))).body.data.status).toBe('archived'));
    // The run's activity is written when the run ends, after its update.
    await eventually(async () => expect((await activityOf('tessera_flows', id)).filter((row) => row.action === 'run').map((row) => row.origin)).toEqual(['mcp']));
    await t.request.patch(`/items/articles/${articleIds.First}`).set(auth(adminToken)).send({ status: 'published' }).expect(200);
  });
});

describe('a restricted user through an MCP client', () => {
  it('sees only what the user may: a hidden collection is absent, item rules apply to reads and writes', async () => {
    const client = await connect(served.url, editorToken);
    expect((await client.listTools()).tools).toHaveLength(8);
    const schema = await call(client, 'schema', {});
    expect(schema.data.collections).toContain('articles');
    expect(schema.data.collections).not.toContain('payroll');
    expect((await call(client, 'schema', { keys: ['payroll'] })).data).toEqual({});
    expect(errorOf(await call(client, 'collections', { action: 'read', keys: ['payroll'] })).code).toBe('FORBIDDEN');
    expect(errorOf(await call(client, 'fields', { action: 'read', collection: 'payroll' })).code).toBe('FORBIDDEN');
    expect(errorOf(await call(client, 'items', { action: 'read', collection: 'payroll' })).code).toBe('FORBIDDEN');
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toContain('tessera://schema/articles');
    expect(resources).not.toContain('tessera://schema/payroll');
    await expect(client.readResource({ uri: 'tessera://schema/payroll' })).rejects.toThrow(/permission/);

    // The item rule (status = published) filters reads and decides writes.
    const titles = (await call(client, 'items', { action: 'read', collection: 'articles', query: { fields: ['title'], sort: ['title'] } })).data.map((item: { title: string }) => item.title);
    expect(titles).toContain('First');
    expect(titles).not.toContain('Hidden draft');
    // Keys it may not read are left out, as in a read of keys over REST.
    expect(await call(client, 'items', { action: 'read', collection: 'articles', keys: [articleIds['Hidden draft'], articleIds.First], query: { fields: ['title'] } })).toEqual({ isError: false, data: [{ title: 'First' }] });
    expect(errorOf(await call(client, 'items', { action: 'update', collection: 'articles', keys: [articleIds['Hidden draft']], data: { title: 'Mine now' }, confirm: true })).code).toBe('FORBIDDEN');
    expect(errorOf(await call(client, 'items', { action: 'create', collection: 'articles', data: { title: 'New', status: 'published' }, confirm: true })).code).toBe('FORBIDDEN');
    expect((await call(client, 'items', { action: 'update', collection: 'articles', keys: [articleIds.Second], data: { title: 'Second, edited' }, query: { fields: ['title'] }, confirm: true })).data).toEqual([{ title: 'Second, edited' }]);
    expect(await activityOf('articles', articleIds.Second!)).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'update', origin: 'mcp' })]));
    expect((await t.request.get(`/items/articles/${articleIds['Hidden draft']}`).set(auth(adminToken))).body.data.title).toBe('Hidden draft');
  });
});

describe('the endpoint', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const accept = { Accept: 'application/json, text/event-stream' };

  it('needs a signed-in caller, and serves POST only (stateless)', async () => {
    // Mounted lazily under /mcp only (server/app-routers.ts), as tests/integration/ops/lazy-routers.test.ts checks the others.
    const entry = appRouters(t.context).find((router) => router.prefixes.includes('/mcp'))!;
    expect((await entry.load()).stack.map((layer) => String(layer.path)).filter((path) => !underPrefix(path, entry.prefixes))).toEqual([]);
    const anonymous = await t.request.post('/mcp').set(accept).send(initialize).expect(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    // The session cookie alone is not enough: a page of another site could send it.
    const cookie = (await t.request.post('/auth/login').send({ email: 'editor@example.com', password: 'editor-password-1', mode: 'session' }).expect(200)).headers['set-cookie'];
    expect(String(cookie)).toContain('tessera_session_token');
    await t.request.get('/users/me').set('Cookie', cookie!).expect(200);
    await t.request.post('/mcp').set('Cookie', cookie!).set(accept).send(initialize).expect(401);
    const get = await t.request.get('/mcp').set(auth(adminToken)).set(accept).expect(405);
    expect(get.headers.allow).toBe('POST');
    await t.request.delete('/mcp').set(auth(adminToken)).expect(405);
    const answered = await t.request.post('/mcp').set(auth(adminToken)).set(accept).send(initialize).expect(200);
    expect(answered.body.result.serverInfo.name).toBe('tessera');
    expect(answered.headers['mcp-session-id']).toBeUndefined();
    // A __proto__ key is refused by the body parser, as on every REST route (the SDK's validation would drop it silently).
    const call = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"items","arguments":{"action":"read","collection":"articles","query":{"filter":{"__proto__":{"title":{"_eq":"x"}}}}}}}';
    const proto = await t.request.post('/mcp').set(auth(adminToken)).set(accept).set('Content-Type', 'application/json').send(call).expect(400);
    expect(proto.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });

  it('refuses writes when MCP_ALLOW_WRITES is off, and is absent when MCP_ENABLED is off', async () => {
    const readOnly = await createSecondInstance(t, { MCP_ENABLED: 'true' });
    closers.push(readOnly.close);
    const readOnlyServed = await listen({ app: readOnly.app } as TestApp);
    closers.push(readOnlyServed.close);
    const client = await connect(readOnlyServed.url, adminToken);
    const refused = errorOf(await call(client, 'items', { action: 'create', collection: 'articles', data: { title: 'Nope' }, confirm: true }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('MCP_ALLOW_WRITES');
    expect(errorOf(await call(client, 'files', { action: 'import', data: [{ url: fileUrl }], confirm: true })).code).toBe('FORBIDDEN');
    expect((await call(client, 'items', { action: 'read', collection: 'articles', query: { limit: 1, fields: ['id'] } })).isError).toBe(false);
    expect((await t.request.get('/items/articles?filter[title][_eq]=Nope').set(auth(adminToken)).expect(200)).body.data).toEqual([]);

    const disabled = await createSecondInstance(t);
    closers.push(disabled.close);
    const response = await disabled.request.post('/mcp').set(auth(adminToken)).set(accept).send(initialize).expect(404);
    expect(response.body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
  });

  it('is rate-limited like the REST API', async () => {
    const config = { ...t.context.config, rateLimiter: { enabled: true, points: 3, durationMs: 60_000, store: 'memory' as const } };
    const rateLimit: RateLimit = createRateLimit(config, t.context.logger, { keyPrefix: `test:mcp:${Date.now()}` });
    closers.push(() => rateLimit.close());
    const request = supertest(createApp(t.context, { rateLimit }).callback());
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    for (let i = 0; i < 3; i++) expect((await request.post('/mcp').set(auth(adminToken)).set(accept).send(list).expect(200)).body.result.tools).toHaveLength(8);
    const limited = await request.post('/mcp').set(auth(adminToken)).set(accept).send(list).expect(429);
    expect(limited.body.errors[0].extensions.code).toBe('REQUESTS_EXCEEDED');
  });
});
