import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let admin: string;
let editor: string;
let apiOnly: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
let publish: string;
let internal: string;
let ledgerFlow: string;
let draft: number;
let hidden: number;

async function userWithRole(name: string, email: string, appAccess: boolean, permissions: object[]): Promise<string> {
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: appAccess }).expect(200)).body.data.id as string;
  for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
  await t.request.post('/users').set(auth(admin)).send({ email, password: 'editor-password-1', role, status: 'active' }).expect(200);
  return t.login(email, 'editor-password-1');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'ledger', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  draft = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'draft', status: 'draft' }).expect(200)).body.data.id;
  hidden = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'embargoed', status: 'embargoed' }).expect(200)).body.data.id;
  // The editor reads and updates articles except embargoed ones, and cannot read the ledger at all.
  const visible = { status: { _neq: 'embargoed' } };
  editor = await userWithRole('Editor', 'editor@example.com', true, [
    { collection: 'articles', action: 'read', fields: ['*'], permissions: visible },
    { collection: 'articles', action: 'update', fields: ['*'], permissions: visible },
  ]);
  apiOnly = await userWithRole('Integration', 'api@example.com', false, [{ collection: 'articles', action: 'read', fields: ['*'] }]);
  publish = (
    await createFlow(t, admin, { name: 'publish', icon: 'bolt', trigger: 'manual', accountability: 'all', options: { collections: ['articles'], requireConfirmation: true, location: 'item' } }, [
      { key: 'publish', type: 'item-update', options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { status: 'published' }, permissions: '$trigger' } },
    ])
  ).id;
  // Runs on no item (requireSelection: false): an empty key list is what it takes.
  ledgerFlow = (await createFlow(t, admin, { name: 'close books', trigger: 'manual', options: { collections: ['ledger'], requireSelection: false } }, [{ key: 'log', type: 'log', options: { message: 'closing' } }])).id;
  internal = (
    await createFlow(t, admin, { name: 'deploy hook', trigger: 'webhook', options: { method: 'POST' } }, [
      { key: 'call', type: 'request', options: { url: 'https://example.com/deploy', method: 'POST', headers: [{ header: 'Authorization', value: 'Bearer deploy-secret' }] } },
    ])
  ).id;
  await createFlow(t, admin, { name: 'retired', trigger: 'manual', status: 'inactive', options: { collections: ['articles'] } }, []);
});

afterAll(async () => {
  await t.context.events.idle();
  await t?.close();
});

it('an app user reads the active manual flows, with only the fields a button needs, and nothing else of flows', async () => {
  const list = await t.request.get('/flows').set(auth(editor)).expect(200);
  expect(list.body.data.map((flow: { name: string }) => flow.name).sort()).toEqual(['close books', 'publish']);
  const mine = list.body.data.find((flow: { id: string }) => flow.id === publish);
  expect(Object.keys(mine).sort()).toEqual(['color', 'icon', 'id', 'name', 'options', 'status', 'trigger']);
  expect(mine).toMatchObject({ trigger: 'manual', status: 'active', options: { collections: ['articles'], requireConfirmation: true } });
  // The admin's own query for the buttons works as it is.
  const buttons = await t.request.get('/flows?filter[trigger][_eq]=manual&filter[status][_eq]=active&fields=id,name,icon,color,options,trigger,status&sort=name').set(auth(editor)).expect(200);
  expect(buttons.body.data).toHaveLength(2);
  // Not the webhook flow, not the chain, not how a flow logs.
  await t.request.get(`/flows/${internal}`).set(auth(editor)).expect(403);
  await t.request.get(`/flows/${publish}?fields=accountability`).set(auth(editor)).expect(403);
  await t.request.get(`/flows/${publish}?fields=operation`).set(auth(editor)).expect(403);
  await t.request.get('/operations').set(auth(editor)).expect(403);
  await t.request.get(`/flows/${publish}/runs`).set(auth(editor)).expect(403);
  // Reading is all: no writes to flows.
  await t.request.patch(`/flows/${publish}`).set(auth(editor)).send({ name: 'mine now' }).expect(403);
  // A role without app access gets no default at all.
  await t.request.get('/flows').set(auth(apiOnly)).expect(403);
});

it('an app user runs a manual flow on items it may read; not on items or collections it may not, nor does a role without app access', async () => {
  await t.request.post(`/flows/trigger/${publish}`).set(auth(editor)).send({ collection: 'articles', keys: [hidden] }).expect(403);
  await t.request.post(`/flows/trigger/${publish}`).set(auth(editor)).send({ collection: 'articles', keys: [draft, hidden] }).expect(403);
  await t.request.post(`/flows/trigger/${publish}`).set(auth(editor)).send({ collection: 'articles', keys: [999_999] }).expect(403);
  await t.request.post(`/flows/trigger/${ledgerFlow}`).set(auth(editor)).send({ collection: 'ledger', keys: [] }).expect(403);
  await t.request.post(`/flows/trigger/${publish}`).set(auth(apiOnly)).send({ collection: 'articles', keys: [draft] }).expect(403);
  const badKeys = await t.request.post(`/flows/trigger/${publish}`).set(auth(editor)).send({ collection: 'articles', keys: [{ id: 1 }] }).expect(400);
  expect(badKeys.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'keys' });
  expect((await t.request.get(`/items/articles/${hidden}`).set(auth(admin))).body.data.status).toBe('embargoed');

  await t.request.post(`/flows/trigger/${publish}`).set(auth(editor)).send({ collection: 'articles', keys: [draft] }).expect(200);
  await waitFor(async () => (await t.request.get(`/items/articles/${draft}`).set(auth(admin))).body.data.status === 'published');
  // The run is logged as the editor's, once it has ended: its row is written after the update it made.
  let runs: { status: string; user: string | null }[] = [];
  await waitFor(async () => {
    runs = (await t.request.get(`/flows/${publish}/runs`).set(auth(admin)).expect(200)).body.data;
    return runs.length > 0;
  });
  expect(runs[0]).toMatchObject({ status: 'resolved' });
  expect(runs[0]!.user).toBeTruthy();
  // The administrator still runs any manual flow.
  await t.request.post(`/flows/trigger/${ledgerFlow}`).set(auth(admin)).send({ collection: 'ledger', keys: [] }).expect(200);
});

it('a manual trigger keeps only its button settings in options (every app user reads them)', async () => {
  const refused = await t.request.post('/flows').set(auth(admin)).send({ name: 'leaky', trigger: 'manual', options: { collections: ['articles'], apiToken: 'secret-123' } }).expect(400);
  expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'options.apiToken' });
  expect(refused.body.errors[0].message).toContain('options.apiToken');
  const directus = { collections: ['articles'], location: 'both', requireSelection: false, requireConfirmation: true, confirmationDescription: 'Sure?', fields: [{ field: 'note', name: 'Note', type: 'string' }], async: true };
  await t.request.post('/flows').set(auth(admin)).send({ name: 'directus shaped', trigger: 'manual', options: directus }).expect(200);
});

it('a manual flow that requires a selection needs at least one key the caller may read; one that does not gets no keys, so its operations on $trigger.keys touch nothing', async () => {
  // An administrator's flows whose item-update runs with $full on the trigger's keys, then leaves a marker.
  const chain = (marker: string) => [
    { key: 'stamp', type: 'item-update', options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { title: 'stamped' }, permissions: '$full' }, resolve: 'mark' },
    { key: 'mark', type: 'item-create', options: { collection: 'ledger', payload: { title: marker }, permissions: '$full' } },
  ];
  const stamp = (await createFlow(t, admin, { name: 'stamp', trigger: 'manual', accountability: 'all', options: { collections: ['articles'] } }, chain('stamp done'))).id;
  const sweep = (await createFlow(t, admin, { name: 'sweep', trigger: 'manual', accountability: 'all', options: { collections: ['articles'], requireSelection: false } }, chain('sweep done'))).id;
  const run = (flow: string, token: string, body: object) => t.request.post(`/flows/trigger/${flow}`).set(auth(token)).send(body);

  // No keys, or an empty list: refused before any run starts, for the administrator too.
  for (const [token, body] of [[editor, { collection: 'articles' }], [editor, { collection: 'articles', keys: [] }], [admin, { collection: 'articles' }]] as const) {
    const refused = await run(stamp, token, body).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'keys' });
  }
  await run(stamp, editor, { collection: 'articles', keys: [draft, hidden] }).expect(403);
  await run(stamp, admin, { collection: 'articles', keys: [999_999] }).expect(403);

  // Without a selection the run gets no keys, whatever the request lists, and stamps nothing.
  await run(sweep, editor, { collection: 'articles', keys: [hidden, draft] }).expect(200);
  await waitFor(async () => (await t.system.db.selectFrom('ledger').select('id').where('title', '=', 'sweep done').execute()).length === 1);
  const stamped = await t.system.db.selectFrom('articles').select('id').where('title', '=', 'stamped').execute();
  expect(stamped).toEqual([]);
  const [sweepRun] = (await t.request.get(`/flows/${sweep}/runs`).set(auth(admin)).expect(200)).body.data;
  expect(sweepRun.trigger).toMatchObject({ collection: 'articles', keys: [] });
  expect(sweepRun.steps[0]).toMatchObject({ key: 'stamp', status: 'resolve', data: [] });

  // With a readable key the same chain stamps exactly that item.
  await run(stamp, editor, { collection: 'articles', keys: [draft] }).expect(200);
  await waitFor(async () => (await t.system.db.selectFrom('ledger').select('id').where('title', '=', 'stamp done').execute()).length === 1);
  expect(await t.system.db.selectFrom('articles').select('id').where('title', '=', 'stamped').execute()).toEqual([{ id: draft }]);
});
