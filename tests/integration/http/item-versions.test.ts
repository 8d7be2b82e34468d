import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 35 item 1: ETag / If-Match, no lost updates (docs/collaboration.md, "No lost updates").
describe('item versions: ETag and If-Match', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  const auth = (token = admin) => ({ Authorization: `Bearer ${token}` });
  const ETAG = /^"[0-9a-f]{32}"$/;

  const create = async (collection: string, body: object) => (await t.request.post(`/items/${collection}`).set(auth()).send(body).expect(200)).body.data;
  const etagOf = async (path: string, token = admin) => (await t.request.get(path).set(auth(token)).expect(200)).headers.etag as string;
  const patch = (path: string, body: object, ifMatch?: string, token = admin) => {
    const request = t.request.patch(path).set(auth(token));
    return (ifMatch === undefined ? request : request.set('If-Match', ifMatch)).send(body);
  };
  const graphql = async (query: string, variables: object = {}, token = admin) => t.request.post('/graphql').set(auth(token)).send({ query, variables });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const fields = [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }, { field: 'internal', type: 'string' }];
    await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields }).expect(200);
    await t.request.post('/collections').set(auth()).send({ collection: 'remarks', fields: [{ field: 'text', type: 'string' }, { field: 'note', type: 'integer' }] }).expect(200);
    await t.request.post('/relations').set(auth()).send({ collection: 'remarks', field: 'note', related_collection: 'notes', meta: { one_field: 'remarks' } }).expect(200);
    const role = (await t.request.post('/roles').set(auth()).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
    await t.request.post('/permissions').set(auth()).send({ role, collection: 'notes', action: 'read', fields: ['id', 'title', 'body'] }).expect(200);
    await t.request.post('/permissions').set(auth()).send({ role, collection: 'notes', action: 'update', fields: '*', permissions: { title: { _neq: 'locked' } } }).expect(200);
    await t.request.post('/users').set(auth()).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200);
    editor = await t.login('editor@example.com', 'editor-password-1');
  });
  afterAll(() => t.close());

  it('two clients with the same ETag: the first write wins, the second gets 412 with the current version and item, nothing is lost', async () => {
    const note = await create('notes', { title: 'Plan', body: 'v1', internal: 'x' });
    const path = `/items/notes/${note.id}`;
    const read = await t.request.get(path).set(auth()).expect(200);
    expect(read.headers.etag).toMatch(ETAG);
    const version = read.headers.etag as string;

    const mine = await patch(path, { title: 'Plan (mine)' }, version).expect(200);
    expect(mine.headers.etag).toMatch(ETAG);
    expect(mine.headers.etag).not.toBe(version);
    expect(mine.headers.etag).toBe(await etagOf(path));

    const theirs = await patch(`${path}?fields=title,body`, { body: 'v2 (theirs)' }, version).expect(412);
    const error = theirs.body.errors[0];
    expect(error.extensions.code).toBe('PRECONDITION_FAILED');
    expect(error.extensions.conflicts).toEqual([{ key: note.id, etag: mine.headers.etag, item: { title: 'Plan (mine)', body: 'v1' } }]);
    expect(theirs.headers.etag).toBe(mine.headers.etag);
    expect((await t.request.get(path).set(auth()).expect(200)).body.data).toMatchObject({ title: 'Plan (mine)', body: 'v1' });

    // Merged and sent again with the current version: both changes kept.
    await patch(path, { body: 'v2 (theirs)' }, theirs.headers.etag).expect(200);
    expect((await t.request.get(path).set(auth()).expect(200)).body.data).toMatchObject({ title: 'Plan (mine)', body: 'v2 (theirs)' });
    // Without If-Match the API behaves as before.
    await patch(path, { body: 'v3' }).expect(200);
  });

  it('two concurrent PATCHes with the same If-Match: exactly one wins (the check is part of the UPDATE)', async () => {
    const note = await create('notes', { title: 'Race', body: '' });
    const path = `/items/notes/${note.id}`;
    const version = await etagOf(path);
    // A third session holds the row, so both PATCHes have checked nothing yet when they queue behind it.
    const holder = new pg.Client({ connectionString: t.testDatabase.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from notes where id = $1 for update', [note.id]);
      const both = Promise.all([patch(path, { body: 'first' }, version).then((response) => response), patch(path, { body: 'second' }, version).then((response) => response)]);
      await eventually(async () => {
        // Inside the holder's transaction the activity view is a snapshot taken once; take a fresh one.
        await holder.query('select pg_stat_clear_snapshot()');
        const waiting = await holder.query("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update%notes%'");
        expect(waiting.rows[0].n).toBe(2);
      }, 60_000);
      await holder.query('commit');
      const [first, second] = await both;
      expect([first.status, second.status].sort()).toEqual([200, 412]);
      const winner = first.status === 200 ? 'first' : 'second';
      expect((await t.request.get(path).set(auth()).expect(200)).body.data.body).toBe(winner);
    } finally {
      await holder.end();
    }
  });

  it('the version changes on any write: by SQL by hand, of a field the caller cannot read, of related items only', async () => {
    const note = await create('notes', { title: 'Hand', internal: 'a' });
    const path = `/items/notes/${note.id}`;
    let version = await etagOf(path);
    await sql`update notes set title = 'Hand (SQL)' where id = ${note.id}`.execute(t.system.db);
    await patch(path, { body: 'x' }, version).expect(412);

    version = await etagOf(path, editor);
    await patch(path, { internal: 'b' }).expect(200);
    const refused = await patch(path, { body: 'editor' }, version, editor).expect(412);
    // The editor may not read `internal`: the current item comes without it.
    expect(refused.body.errors[0].extensions.conflicts[0].item).toEqual({ id: note.id, title: 'Hand (SQL)', body: null });

    // An update of o2m values only (no column of the item) checks the version too.
    version = await etagOf(path);
    await sql`update notes set body = 'moved' where id = ${note.id}`.execute(t.system.db);
    await patch(path, { remarks: [{ text: 'new' }] }, version).expect(412);
    expect((await t.request.get(`/items/remarks?filter[note][_eq]=${note.id}`).set(auth()).expect(200)).body.data).toEqual([]);
  });

  it('If-Match: "*", several tags, weak tags, malformed headers; an item outside the rule stays FORBIDDEN', async () => {
    const note = await create('notes', { title: 'Tags' });
    const path = `/items/notes/${note.id}`;
    const version = await etagOf(path);
    await patch(path, { body: 'a' }, '*').expect(200);
    const current = await etagOf(path);
    await patch(path, { body: 'b' }, `"00000000000000000000000000000000", ${version}, ${current}`).expect(200);
    const next = await etagOf(path);
    await patch(path, { body: 'c' }, `W/${next}`).expect(412);
    const malformed = await patch(path, { body: 'c' }, next.slice(1, -1)).expect(400);
    expect(malformed.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'If-Match' });

    const locked = await create('notes', { title: 'locked' });
    await patch(`/items/notes/${locked.id}`, { body: 'x' }, '"00000000000000000000000000000000"', editor).expect(403);
    await patch('/items/notes/999999', { body: 'x' }, '"00000000000000000000000000000000"').expect(403);
  });

  it('DELETE honours If-Match; batch writes expect one of the listed versions for each item', async () => {
    const one = await create('notes', { title: 'One' });
    const two = await create('notes', { title: 'Two' });
    const [v1, v2] = [await etagOf(`/items/notes/${one.id}`), await etagOf(`/items/notes/${two.id}`)];
    await patch(`/items/notes/${two.id}`, { body: 'changed' }).expect(200);

    const batch = await t.request.patch('/items/notes').set(auth()).set('If-Match', `${v1}, ${v2}`).send({ keys: [one.id, two.id], data: { title: 'Both' } }).expect(412);
    const conflicts = batch.body.errors[0].extensions.conflicts;
    expect(conflicts.map((conflict: { key: number }) => conflict.key)).toEqual([two.id]);
    expect(conflicts[0].item).toMatchObject({ title: 'Two', body: 'changed' });
    expect((await t.request.get(`/items/notes/${one.id}`).set(auth()).expect(200)).body.data.title).toBe('One');

    const v2now = conflicts[0].etag as string;
    await t.request.patch('/items/notes').set(auth()).set('If-Match', `${v1}, ${v2now}`).send([{ id: one.id, title: 'Both' }, { id: two.id, title: 'Both' }]).expect(200);
    const [w1, w2] = [await etagOf(`/items/notes/${one.id}`), await etagOf(`/items/notes/${two.id}`)];
    await t.request.delete('/items/notes').set(auth()).set('If-Match', `${w1}, ${v2now}`).send([one.id, two.id]).expect(412);
    await t.request.delete(`/items/notes/${one.id}`).set(auth()).set('If-Match', v1).expect(412);
    await t.request.delete('/items/notes').set(auth()).set('If-Match', `${w1}, ${w2}`).send({ keys: [one.id, two.id] }).expect(204);
    await t.request.get(`/items/notes/${one.id}`).set(auth()).expect(403);
  });

  it('If-None-Match answers 304 when the version decides the answer, never for a read with related items', async () => {
    const note = await create('notes', { title: 'Cached', remarks: [{ text: 'r1' }] });
    const path = `/items/notes/${note.id}?fields=id,title`;
    const version = await etagOf(path);
    const again = await t.request.get(path).set(auth()).set('If-None-Match', version).expect(304);
    expect(again.headers.etag).toBe(version);
    const related = `/items/notes/${note.id}?fields=title,remarks.text`;
    expect(await etagOf(related)).toBe(version);
    await t.request.get(related).set(auth()).set('If-None-Match', version).expect(200);
  });

  it('system collections carry versions through the same routes (/users/:id, /files/:id)', async () => {
    const me = (await t.request.get('/users/me').set(auth(editor)).expect(200)).body.data.id as string;
    const version = await etagOf(`/users/${me}`);
    await patch(`/users/${me}`, { first_name: 'Ed' }, version).expect(200);
    const stale = await patch(`/users/${me}`, { first_name: 'Eddie' }, version).expect(412);
    expect(stale.body.errors[0].extensions.conflicts[0].item.first_name).toBe('Ed');
    expect(stale.body.errors[0].extensions.conflicts[0].item.password).toBe('**********');

    // Files: metadata PATCH through the item routes, DELETE through the files service (content removed too).
    const file = (await t.request.post('/files').set(auth()).attach('file', Buffer.from('hello'), { filename: 'hello.txt', contentType: 'text/plain' }).expect(200)).body.data;
    const fileVersion = await etagOf(`/files/${file.id}`);
    await patch(`/files/${file.id}`, { title: 'Greeting' }, fileVersion).expect(200);
    const staleDelete = await t.request.delete(`/files/${file.id}`).set(auth()).set('If-Match', fileVersion).expect(412);
    expect(staleDelete.body.errors[0].extensions.conflicts[0].item.title).toBe('Greeting');
    await t.request.delete(`/files/${file.id}`).set(auth()).set('If-Match', staleDelete.headers.etag as string).expect(204);
  });

  it('GraphQL: <collection>_etag reads the version, if_match on update and delete mutations (single and batch)', async () => {
    const note = await create('notes', { title: 'GraphQL' });
    const etag = (await graphql('query ($id: ID!) { notes_etag(id: $id) }', { id: note.id })).body.data.notes_etag as string;
    expect(etag).toBe(await etagOf(`/items/notes/${note.id}`));

    const update = 'mutation ($id: ID!, $tag: String, $body: String) { update_notes_item(id: $id, data: { body: $body }, if_match: $tag) { id body } }';
    const [first, second] = await Promise.all([graphql(update, { id: note.id, tag: etag, body: 'one' }), graphql(update, { id: note.id, tag: etag, body: 'two' })]);
    const failed = [first, second].find((response) => response.body.errors);
    const won = [first, second].find((response) => !response.body.errors);
    // The request ran: 200, the stale field's error (and its current item) beside `data`.
    expect(failed?.status).toBe(200);
    expect(failed?.body.errors[0].extensions.code).toBe('PRECONDITION_FAILED');
    expect(failed?.body.errors[0].extensions.conflicts[0].item).toEqual({ id: note.id, body: won?.body.data.update_notes_item.body });

    const current = failed?.body.errors[0].extensions.conflicts[0].etag as string;
    const batch = 'mutation ($ids: [ID!]!, $tags: [String!]) { update_notes_items(ids: $ids, data: { title: "Batch" }, if_match: $tags) { id } }';
    expect((await graphql(batch, { ids: [note.id], tags: [etag] })).body.errors[0].extensions.code).toBe('PRECONDITION_FAILED');
    expect((await graphql(batch, { ids: [note.id], tags: [current.slice(1, -1)] })).body.data.update_notes_items).toEqual([{ id: String(note.id) }]);

    const remove = 'mutation ($id: ID!, $tag: String) { delete_notes_item(id: $id, if_match: $tag) { id } }';
    expect((await graphql(remove, { id: note.id, tag: current })).body.errors[0].extensions.code).toBe('PRECONDITION_FAILED');
    const latest = (await graphql('query ($id: ID!) { notes_etag(id: $id) }', { id: note.id })).body.data.notes_etag as string;
    expect((await graphql(remove, { id: note.id, tag: latest })).body.data.delete_notes_item).toEqual({ id: String(note.id) });
    expect((await graphql('query ($id: ID!) { notes_etag(id: $id) }', { id: note.id })).body.data.notes_etag).toBeNull();
  });
});
