import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCacheFixture, type CacheFixture } from './cache-fixture.ts';

/**
 * No answer that differs from one caller to another is ever served from the cache to the wrong one: for every
 * read below, two callers of one role (whose rules never name the user, so they share entries by default)
 * must each get from the cache exactly what they get past it (`Cache-Control: no-store`). Each case also
 * checks that the two true answers differ (else it proves nothing) and that the answer is still kept for its
 * own caller (a second read hits). Add a case for every read that depends on the caller.
 */
let f: CacheFixture;
const tokens: Record<'admin' | 'admin2' | 'reader' | 'reader2' | 'editor' | 'editor2', string> = { admin: '', admin2: '', reader: '', reader2: '', editor: '', editor2: '' };
let dashboard = '';
let noteOfAdmin = 0;
const editors: Record<string, string> = {};

async function setUp(env: Record<string, string>): Promise<void> {
  f = await createCacheFixture({ CACHE_SKIP_ALLOWED: 'true', ...env });
  tokens.admin = f.admin;
  const adminRole = (await f.t.request.get('/users/me?fields=role').set(f.as(f.admin)).expect(200)).body.data.role as string;
  const admin2 = (await f.send('post', '/users', { email: 'admin2@example.com', password: 'admin2-password-1', first_name: 'Second', role: adminRole })).id as string;
  const readerRole = (await f.send('post', '/roles', { name: 'Reader', app_access: false, admin_access: false })).id as string;
  const reader = (await f.send('post', '/users', { email: 'reader@example.com', password: 'reader-password-1', role: readerRole })).id as string;
  const reader2 = (await f.send('post', '/users', { email: 'reader2@example.com', password: 'reader-password-2', role: readerRole })).id as string;
  await f.send('post', '/permissions', [
    { role: readerRole, collection: 'notes', action: 'read', fields: ['*'], permissions: {} },
    { role: readerRole, collection: 'tessera_users', action: 'read', fields: ['id', 'email'], permissions: {} },
  ]);
  const me = (await f.t.request.get('/users/me?fields=id').set(f.as(f.admin)).expect(200)).body.data.id as string;
  const notes = await f.send('post', '/items/notes', [
    { body: 'note of admin', owner: me },
    { body: 'note of admin2', owner: admin2 },
    { body: 'note of reader', owner: reader },
    { body: 'note of reader2', owner: reader2 },
  ]);
  noteOfAdmin = notes[0].id;
  // An app-access role: it gets the default rules on its own activity, presets, notifications and shares,
  // which read $CURRENT_USER; its rule on notes does not.
  const editorRole = (await f.send('post', '/roles', { name: 'Editor', app_access: true, admin_access: false })).id as string;
  await f.send('post', '/permissions', [{ role: editorRole, collection: 'notes', action: 'read', fields: ['*'], permissions: {} }]);
  for (const name of ['editor', 'editor2'] as const) {
    const id = (await f.send('post', '/users', { email: `${name}@example.com`, password: `${name}-password-1`, role: editorRole })).id as string;
    editors[name] = id;
    await f.send('post', '/notifications', { recipient: id, subject: `for ${name}` });
    tokens[name] = await f.t.login(`${name}@example.com`, `${name}-password-1`);
  }
  tokens.admin2 = await f.t.login('admin2@example.com', 'admin2-password-1');
  tokens.reader = await f.t.login('reader@example.com', 'reader-password-1');
  tokens.reader2 = await f.t.login('reader2@example.com', 'reader-password-2');
  dashboard = (await f.send('post', '/dashboards', { name: 'Mine' })).id as string;
  await f.send('post', '/panels', {
    dashboard,
    type: 'list',
    position_x: 1,
    position_y: 1,
    width: 6,
    height: 4,
    options: { collection: 'notes', displayTemplate: '{{body}}', filter: { owner: { _eq: '$CURRENT_USER' } } },
  });
}

const ESCAPED_ME = '"\\u0024CURRENT_USER"';
const mine = (operator = '_eq') => encodeURIComponent(`{"owner":{"${operator}":${operator === '_in' ? `[${ESCAPED_ME}]` : ESCAPED_ME}}}`);

interface Case {
  name: string;
  callers: ['admin', 'admin2'] | ['reader', 'reader2'] | ['editor', 'editor2'];
  path: () => string;
  /** SEARCH with this raw JSON body instead of GET. */
  search?: string;
}

const CASES: Case[] = [
  { name: 'filter with a JSON-escaped $CURRENT_USER', callers: ['reader', 'reader2'], path: () => `/items/notes?fields=body&filter=${mine()}` },
  { name: 'the same for admins', callers: ['admin', 'admin2'], path: () => `/items/notes?fields=body&filter=${mine()}` },
  { name: '_in list with the escape', callers: ['reader', 'reader2'], path: () => `/items/notes?fields=body&filter=${mine('_in')}` },
  { name: 'bracket syntax, percent-encoded', callers: ['reader', 'reader2'], path: () => '/items/notes?fields=body&filter[owner][_eq]=%24CURRENT_USER' },
  { name: 'bracket syntax, percent-encoded letters', callers: ['reader', 'reader2'], path: () => '/items/notes?fields=id,body&filter%5Bowner%5D%5B_eq%5D=%24%43URRENT_USER' },
  { name: '$CURRENT_USER.<field>, escaped', callers: ['reader', 'reader2'], path: () => `/users?fields=email&filter=${encodeURIComponent('{"email":{"_eq":"\\u0024CURRENT_USER.email"}}')}` },
  { name: 'an aggregate over my rows', callers: ['reader', 'reader2'], path: () => `/items/notes?aggregate[max]=body&filter=${mine()}` },
  {
    name: 'a deep filter, escaped',
    callers: ['admin', 'admin2'],
    path: () => `/roles?fields=users.email&filter[admin_access][_eq]=true&deep=${encodeURIComponent(`{"users":{"_filter":{"id":{"_eq":${ESCAPED_ME}}}}}`)}`,
  },
  { name: 'SEARCH with an escaped variable in its JSON body', callers: ['reader', 'reader2'], path: () => '/items/notes', search: `{"query":{"fields":"body","filter":{"owner":{"_eq":${ESCAPED_ME}}}}}` },
  { name: 'mentionable users (everyone but the caller)', callers: ['admin', 'admin2'], path: () => `/activity/comment/mentionable?collection=notes&item=${noteOfAdmin}` },
  { name: "a dashboard whose panel filters on $CURRENT_USER (the URL names no variable)", callers: ['admin', 'admin2'], path: () => `/dashboards/${dashboard}/data` },
  { name: "an app-access role's own notifications (a default rule reads $CURRENT_USER)", callers: ['editor', 'editor2'], path: () => '/notifications?fields=subject' },
];

async function read(c: Case, caller: keyof typeof tokens, uncached = false) {
  const headers = { ...f.as(tokens[caller]), ...(uncached ? { 'Cache-Control': 'no-store' } : {}) };
  const response = c.search
    ? await f.t.request.search(c.path()).set({ ...headers, 'Content-Type': 'application/json' }).send(c.search)
    : await f.t.request.get(c.path()).set(headers);
  expect(response.status, `${c.name} as ${caller}: ${JSON.stringify(response.body)}`).toBe(200);
  return response;
}

describe.each([
  ['memory store', {}],
  ['Redis store', { CACHE_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }],
])('answers that depend on the caller (%s)', (_store, env) => {
  beforeAll(() => setUp(env));
  afterAll(() => f?.t.close());

  it.each(CASES.map((c) => [c.name, c] as const))('%s: each caller gets their own answer from the cache', async (_name, c) => {
    const [first, second] = c.callers;
    const truth = { first: (await read(c, first, true)).body, second: (await read(c, second, true)).body };
    expect(truth.first, 'the two callers must have different answers for this case to prove anything').not.toEqual(truth.second);

    const firstMiss = await read(c, first);
    expect(firstMiss.headers['x-cache']).toBe('MISS');
    expect(firstMiss.body).toEqual(truth.first);
    const secondRead = await read(c, second);
    expect(secondRead.body, `${second} was served ${first}'s answer`).toEqual(truth.second);

    const again = { first: await read(c, first), second: await read(c, second) };
    expect(again.first.headers['x-cache'], 'kept for its own caller').toBe('HIT');
    expect(again.first.body).toEqual(truth.first);
    expect(again.second.headers['x-cache']).toBe('HIT');
    expect(again.second.body).toEqual(truth.second);
  });

  it('still shares answers that do not depend on the caller between users of one role', async () => {
    const path = '/items/notes?fields=body&sort=id';
    expect((await f.t.request.get(path).set(f.as(tokens.reader))).headers['x-cache']).toBe('MISS');
    expect((await f.t.request.get(path).set(f.as(tokens.reader2))).headers['x-cache']).toBe('HIT');
  });

  it('shares answers between users of an app-access role where the rules of what they read never name the user', async () => {
    const path = '/items/notes?fields=body&sort=-id';
    expect((await f.t.request.get(path).set(f.as(tokens.editor))).headers['x-cache']).toBe('MISS');
    const second = await f.t.request.get(path).set(f.as(tokens.editor2));
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual((await f.t.request.get(path).set({ ...f.as(tokens.editor2), 'Cache-Control': 'no-store' })).body);
  });

  it("keeps a user's answer their own when it is read again after a write purged it (the kept compiled read still says whose it is)", async () => {
    const path = '/notifications?fields=subject&sort=-id&limit=1';
    const asEditor = async (who: 'editor' | 'editor2', uncached = false) => (await f.t.request.get(path).set({ ...f.as(tokens[who]), ...(uncached ? { 'Cache-Control': 'no-store' } : {}) }).expect(200)).body;
    await asEditor('editor');
    await asEditor('editor2');
    // The write purges the entries (and the marker that sends callers to their own), not the compiled reads.
    await f.send('post', '/notifications', { recipient: editors.editor, subject: 'another for editor' });
    expect(await asEditor('editor')).toEqual({ data: [{ subject: 'another for editor' }] });
    expect(await asEditor('editor2')).toEqual(await asEditor('editor2', true));
  });

  it('does not keep answers whose query names $NOW, however it is written', async () => {
    const path = `/users?fields=id&filter=${encodeURIComponent('{"last_access":{"_lte":"\\u0024NOW"}}')}`;
    const first = await f.t.request.get(path).set(f.as(tokens.admin));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await f.t.request.get(path).set(f.as(tokens.admin))).headers['x-cache']).toBeUndefined();
  });
});
