import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** tessera_translations (SPEC §5, docs/editorial.md "Translations"): languages validated and canonical, one value per key and language. */
describe('/translations', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const create = (body: object, token = admin) => t.request.post('/translations').set(auth(token)).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
    await t.request.post('/users').set(auth(admin)).send({ email: 'editor@example.com', password: 'translations-password-1', role, status: 'active' }).expect(200);
    editor = await t.login('editor@example.com', 'translations-password-1');
  });
  afterAll(() => t.close());

  it('stores a language in its canonical form', async () => {
    const created = await create({ key: 'labels.publish', language: 'pt-br', value: 'Publicar' }).expect(200);
    expect(created.body.data).toMatchObject({ key: 'labels.publish', language: 'pt-BR', value: 'Publicar' });
  });

  it('refuses a language that is not a tag of a known language, naming it', async () => {
    for (const language of ['not a tag', 'zz', '', 42]) {
      const response = await create({ key: 'labels.x', language, value: 'x' }).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'language' });
    }
  });

  it('refuses a key with spaces around it and the SPEC\'s missing required fields', async () => {
    const spaced = await create({ key: ' labels.x ', language: 'en-US', value: 'x' }).expect(400);
    expect(spaced.body.errors[0].extensions.field).toBe('key');
    const noValue = await create({ key: 'labels.y', language: 'en-US' }).expect(400);
    expect(noValue.body.errors[0].extensions.field).toBe('value');
  });

  it('keeps one value per key and language, on create and update', async () => {
    await create({ key: 'labels.save', language: 'en-US', value: 'Save' }).expect(200);
    const german = (await create({ key: 'labels.save', language: 'de', value: 'Speichern' }).expect(200)).body.data.id;
    const duplicate = await create({ key: 'labels.save', language: 'en-us', value: 'Store' }).expect(400);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'key' });
    const moved = await t.request.patch(`/translations/${german}`).set(auth(admin)).send({ language: 'en-US' }).expect(400);
    expect(moved.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'key' });
  });

  it('lets app users read translations but not write them (SPEC §6)', async () => {
    const read = await t.request.get('/translations?filter[key][_eq]=labels.publish').set(auth(editor)).expect(200);
    expect(read.body.data.map((row: { language: string }) => row.language)).toEqual(['pt-BR']);
    await create({ key: 'labels.z', language: 'en-US', value: 'z' }, editor).expect(403);
  });
});
