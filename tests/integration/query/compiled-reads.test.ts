import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptReads } from '../../../server/query/compiled-reads.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * List reads keep their compiled statement for the next caller with the same query and rules
 * (server/query/compiled-reads.ts). Whatever is reused, every caller must read exactly what its own rules
 * and its own `$CURRENT_USER` allow, and a rule changed a moment ago must apply to the next read.
 */
describe('compiled reads reused across requests', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const tokens: Record<string, Record<string, string>> = {};
  const users: Record<string, string> = {};
  let permission: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
    await t.request
      .post('/collections')
      .set(admin)
      .send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }, { field: 'owner', type: 'uuid' }, { field: 'status', type: 'string' }] })
      .expect(200);
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Writer', app_access: true }).expect(200)).body.data.id as string;
    permission = (await t.request.post('/permissions').set(admin).send({ role, collection: 'notes', action: 'read', fields: ['*'], permissions: { owner: { _eq: '$CURRENT_USER' } } }).expect(200)).body.data.id;
    for (const name of ['ana', 'bo']) {
      const email = `${name}@example.com`;
      users[name] = (await t.request.post('/users').set(admin).send({ email, password: 'password-1234', role, status: 'active' }).expect(200)).body.data.id;
      tokens[name] = { Authorization: `Bearer ${await t.login(email, 'password-1234')}` };
    }
    const notes = ['ana', 'bo'].flatMap((name) => [1, 2, 3].map((i) => ({ text: `${name} ${i}`, owner: users[name], status: i === 1 ? 'published' : 'draft' })));
    await t.request.post('/items/notes').set(admin).send(notes).expect(200);
  });
  afterAll(() => t.close());

  const texts = async (who: Record<string, string>, query = 'sort=text&fields=text') => ((await t.request.get(`/items/notes?${query}`).set(who).expect(200)).body.data as Array<{ text: string }>).map((row) => row.text);

  it('keeps the statement of a repeated list read', async () => {
    const schema = await t.context.schema.get();
    const before = keptReads(schema);
    await texts(admin, 'sort=-text&fields=text&limit=2');
    await texts(admin, 'sort=-text&fields=text&limit=2');
    expect(keptReads(await t.context.schema.get())).toBe(before + 1);
  });

  it('gives each user of a $CURRENT_USER rule their own rows, read after read', async () => {
    for (let round = 0; round < 2; round++) {
      expect(await texts(tokens.ana!)).toEqual(['ana 1', 'ana 2', 'ana 3']);
      expect(await texts(tokens.bo!)).toEqual(['bo 1', 'bo 2', 'bo 3']);
    }
  });

  it('binds $CURRENT_USER in the query per user, also for administrators', async () => {
    const query = 'sort=text&fields=text&filter[owner][_eq]=$CURRENT_USER';
    expect(await texts(tokens.ana!, query)).toEqual(['ana 1', 'ana 2', 'ana 3']);
    expect(await texts(tokens.bo!, query)).toEqual(['bo 1', 'bo 2', 'bo 3']);
    expect(await texts(admin, query)).toEqual([]);
  });

  it('applies a changed rule to the very next read', async () => {
    expect(await texts(tokens.ana!)).toEqual(['ana 1', 'ana 2', 'ana 3']);
    await t.request.patch(`/permissions/${permission}`).set(admin).send({ permissions: { status: { _eq: 'published' } } }).expect(200);
    expect(await texts(tokens.ana!)).toEqual(['ana 1', 'bo 1']);
    expect(await texts(tokens.bo!)).toEqual(['ana 1', 'bo 1']);
    await t.request.patch(`/permissions/${permission}`).set(admin).send({ permissions: { owner: { _eq: '$CURRENT_USER' } } }).expect(200);
    expect(await texts(tokens.bo!)).toEqual(['bo 1', 'bo 2', 'bo 3']);
  });

  const noteIds = async () => ((await t.request.get('/items/notes?sort=text&fields=id,text').set(admin).expect(200)).body.data as Array<{ id: number; text: string }>);

  it('compiles a read by key once for every key, each read answering its own item', async () => {
    const notes = await noteIds();
    const before = keptReads(await t.context.schema.get());
    for (const note of [...notes, ...notes]) {
      const { body } = await t.request.get(`/items/notes/${note.id}?fields=text`).set(admin).expect(200);
      expect(body.data).toEqual({ text: note.text });
    }
    expect(keptReads(await t.context.schema.get())).toBe(before + 1);
  });

  it('applies each caller\'s rules to reads by key compiled for another key', async () => {
    const notes = await noteIds();
    const [anaNote, boNote] = [notes.find((note) => note.text === 'ana 2')!, notes.find((note) => note.text === 'bo 2')!];
    for (let round = 0; round < 2; round++) {
      expect((await t.request.get(`/items/notes/${anaNote.id}?fields=text`).set(tokens.ana!).expect(200)).body.data).toEqual({ text: 'ana 2' });
      await t.request.get(`/items/notes/${boNote.id}?fields=text`).set(tokens.ana!).expect(403);
      expect((await t.request.get(`/items/notes/${boNote.id}?fields=text`).set(tokens.bo!).expect(200)).body.data).toEqual({ text: 'bo 2' });
    }
  });

  it('keeps a filter on the key next to the bound key apart from it', async () => {
    const [first, second] = await noteIds();
    await t.request.get(`/items/notes/${first!.id}?fields=text&filter[id][_in]=${first!.id}`).set(admin).expect(200);
    await t.request.get(`/items/notes/${second!.id}?fields=text&filter[id][_in]=${first!.id}`).set(admin).expect(403);
    await t.request.get(`/items/notes/${second!.id}?fields=text&filter[id][_in]=${second!.id}`).set(admin).expect(200);
  });

  it('reads back each written item with its statement kept', async () => {
    const created = (await t.request.post('/items/notes?fields=text').set(admin).send({ text: 'new one', owner: users.ana, status: 'draft' }).expect(200)).body.data;
    expect(created).toEqual({ text: 'new one' });
    const before = keptReads(await t.context.schema.get());
    const other = (await t.request.post('/items/notes?fields=id,text').set(admin).send({ text: 'newer one', owner: users.bo, status: 'draft' }).expect(200)).body.data;
    expect(other.text).toBe('newer one');
    const updated = (await t.request.patch(`/items/notes/${other.id}?fields=id,text`).set(admin).send({ text: 'renamed' }).expect(200)).body.data;
    expect(updated).toEqual({ id: other.id, text: 'renamed' });
    expect(keptReads(await t.context.schema.get())).toBe(before + 1);
  });

  it('never keeps a read whose query names $NOW: its value is the moment of each read', async () => {
    await t.request.post('/fields/notes').set(admin).send({ field: 'due', type: 'timestamp' }).expect(200);
    const before = keptReads(await t.context.schema.get());
    for (let round = 0; round < 2; round++) await texts(admin, 'sort=text&fields=text&filter[due][_lt]=$NOW');
    expect(keptReads(await t.context.schema.get())).toBe(before);
  });

  it("never keeps a share session's read: its reach is the share's own", async () => {
    const [note] = (await t.request.get('/items/notes?filter[text][_eq]=ana 1&fields=id').set(admin).expect(200)).body.data as Array<{ id: number }>;
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Note reader' }).expect(200)).body.data.id as string;
    await t.request.post('/permissions').set(admin).send({ role, collection: 'notes', action: 'read', fields: ['*'] }).expect(200);
    const share = (await t.request.post('/shares').set(admin).send({ collection: 'notes', item: String(note!.id), role }).expect(200)).body.data.id as string;
    const session = { Authorization: `Bearer ${(await t.request.post('/shares/auth').send({ share }).expect(200)).body.data.access_token}` };
    const before = keptReads(await t.context.schema.get());
    for (let round = 0; round < 2; round++) {
      expect((await t.request.get('/items/notes?fields=text&sort=text').set(session).expect(200)).body.data).toEqual([{ text: 'ana 1' }]);
    }
    expect(keptReads(await t.context.schema.get())).toBe(before);
  });

  it('applies a changed schema to the very next read', async () => {
    await texts(admin, 'sort=text&fields=*&limit=1');
    await t.request.post('/fields/notes').set(admin).send({ field: 'mood', type: 'string', schema: { default_value: 'calm' } }).expect(200);
    const [first] = (await t.request.get('/items/notes?sort=text&fields=*&limit=1').set(admin).expect(200)).body.data;
    expect(first).toMatchObject({ text: 'ana 1', mood: 'calm' });
  });
});
