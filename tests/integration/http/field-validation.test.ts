import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Field validation (docs/editorial.md): `meta.validation` + `meta.validation_message`, on every write path, for every caller. */
describe('field validation', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const SLUG_MESSAGE = 'Slugs use lowercase letters, digits and dashes.';
  const count = async () => Number((await t.system.db.selectFrom('pages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'books', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({
        collection: 'pages',
        fields: [
          { field: 'slug', type: 'string', meta: { validation: { slug: { _regex: '^[a-z0-9-]+$' } }, validation_message: SLUG_MESSAGE } },
          { field: 'rating', type: 'integer', meta: { validation: { _and: [{ rating: { _gte: 1 } }, { rating: { _lte: 5 } }] } } },
          { field: 'book', type: 'integer' },
        ],
      })
      .expect(200);
    await t.request.post('/relations').set(auth(admin)).send({ collection: 'pages', field: 'book', related_collection: 'books', meta: { one_field: 'pages' } }).expect(200);
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
    for (const action of ['create', 'read', 'update']) {
      await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'pages', action, fields: '*' }).expect(200);
    }
    await t.request.post('/users').set(auth(admin)).send({ email: 'editor@example.com', password: 'validation-password-1', role, status: 'active' }).expect(200);
    editor = await t.login('editor@example.com', 'validation-password-1');
  });
  afterAll(() => t.close());

  it('returns the rule and its message with the field', async () => {
    const field = (await t.request.get('/fields/pages/slug').set(auth(admin)).expect(200)).body.data;
    expect(field.meta).toMatchObject({ validation: { slug: { _regex: '^[a-z0-9-]+$' } }, validation_message: SLUG_MESSAGE });
  });

  it('refuses a create that breaks a rule with 400 FAILED_VALIDATION naming the field and giving its message, admins included', async () => {
    for (const token of [admin, editor]) {
      const response = await t.request.post('/items/pages').set(auth(token)).send({ slug: 'Not A Slug' }).expect(400);
      expect(response.body.errors[0].message).toBe(SLUG_MESSAGE);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'FAILED_VALIDATION', field: 'slug', type: '_regex' });
    }
    const created = await t.request.post('/items/pages').set(auth(editor)).send({ slug: 'a-good-slug', rating: 3 }).expect(200);
    expect(created.body.data).toMatchObject({ slug: 'a-good-slug', rating: 3 });
  });

  it('says which field and operator failed when the rule has no message of its own', async () => {
    const response = await t.request.post('/items/pages').set(auth(admin)).send({ slug: 'ok', rating: 9 }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'FAILED_VALIDATION', field: 'rating', type: '_lte' });
    expect(response.body.errors[0].message).toBe('Validation failed for field "rating": it must meet _lte 5.');
  });

  it('judges only the fields a write gives a value (a left-out field is meta.required\'s business)', async () => {
    await t.request.post('/items/pages').set(auth(editor)).send({ book: null }).expect(200);
    await t.request.post('/items/pages').set(auth(editor)).send({ slug: 'only-slug' }).expect(200);
    const nulled = await t.request.post('/items/pages').set(auth(editor)).send({ rating: null }).expect(400);
    expect(nulled.body.errors[0].extensions).toMatchObject({ field: 'rating', type: '_gte' });
  });

  it('checks an update on the fields it sends, by key, by keys and by query', async () => {
    const id = (await t.request.post('/items/pages').set(auth(admin)).send({ slug: 'to-update', rating: 2 }).expect(200)).body.data.id;
    await t.request.patch(`/items/pages/${id}`).set(auth(editor)).send({ rating: 4 }).expect(200);
    const byKey = await t.request.patch(`/items/pages/${id}`).set(auth(editor)).send({ slug: 'Bad Slug' }).expect(400);
    expect(byKey.body.errors[0].extensions.field).toBe('slug');
    await t.request.patch('/items/pages').set(auth(admin)).send({ keys: [id], data: { rating: 0 } }).expect(400);
    await t.request.patch('/items/pages').set(auth(admin)).send({ query: { filter: { id: { _eq: id } } }, data: { slug: 'UPPER' } }).expect(400);
    const row = await t.system.db.selectFrom('pages').select(['slug', 'rating']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ slug: 'to-update', rating: 4 });
  });

  it('writes nothing of a batch, a nested write or an import when one row breaks a rule', async () => {
    const before = await count();
    const batch = await t.request.post('/items/pages').set(auth(admin)).send([{ slug: 'fine-one' }, { slug: 'Broken One' }]).expect(400);
    expect(batch.body.errors[0].extensions).toMatchObject({ code: 'FAILED_VALIDATION', field: 'slug' });
    const nested = await t.request.post('/items/books').set(auth(admin)).send({ name: 'Book', pages: [{ slug: 'fine' }, { slug: 'NOT fine' }] }).expect(400);
    expect(nested.body.errors[0].extensions).toMatchObject({ code: 'FAILED_VALIDATION', field: 'slug' });
    const csv = 'slug,rating\nimported-fine,1\nimported-broken,7\n';
    const imported = await t.request.post('/utils/import/pages').set(auth(admin)).attach('file', Buffer.from(csv), { filename: 'pages.csv', contentType: 'text/csv' });
    expect(imported.status).toBe(400);
    expect(imported.body.errors[0].extensions.code).toBe('FAILED_VALIDATION');
    expect(await count()).toBe(before);
    expect(await t.system.db.selectFrom('books').selectAll().execute()).toEqual([]);
  });

  it('refuses a rule that could never judge a value, naming meta.validation', async () => {
    const cases: object[] = [
      { slug: { _intersects: 'x' } },
      { slug: { _regex: '([a-z' } },
      { _and: { slug: { _eq: 'x' } } },
      { _eq: 'x' },
      { slug: 'plain' },
    ];
    for (const validation of cases) {
      const response = await t.request.patch('/fields/pages/slug').set(auth(admin)).send({ meta: { validation } }).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'meta.validation' });
    }
    const field = (await t.request.get('/fields/pages/slug').set(auth(admin)).expect(200)).body.data;
    expect(field.meta.validation).toEqual({ slug: { _regex: '^[a-z0-9-]+$' } });
  });

  it('applies a changed rule at once and stops when it is removed', async () => {
    await t.request.patch('/fields/pages/slug').set(auth(admin)).send({ meta: { validation: { slug: { _starts_with: 'p-' } }, validation_message: null } }).expect(200);
    const refused = await t.request.post('/items/pages').set(auth(editor)).send({ slug: 'no-prefix' }).expect(400);
    expect(refused.body.errors[0].message).toBe('Validation failed for field "slug": it must meet _starts_with "p-".');
    await t.request.post('/items/pages').set(auth(editor)).send({ slug: 'p-prefixed' }).expect(200);
    await t.request.patch('/fields/pages/slug').set(auth(admin)).send({ meta: { validation: null } }).expect(200);
    await t.request.post('/items/pages').set(auth(editor)).send({ slug: 'Anything Goes' }).expect(200);
  });
});

describe('field validation in snapshots', () => {
  let source: TestApp;
  let target: TestApp;
  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('round-trips meta.validation and meta.validation_message, and the applied rule is enforced', async () => {
    const auth = { Authorization: `Bearer ${await source.login()}` };
    const meta = { validation: { code: { _regex: '^[A-Z]{3}$' } }, validation_message: 'Three capital letters.' };
    await source.request.post('/collections').set(auth).send({ collection: 'codes', fields: [{ field: 'code', type: 'string', meta }] }).expect(200);
    const snapshot = (await source.request.get('/schema/snapshot').set(auth).expect(200)).body.data;
    expect(snapshot.fields.find((field: { collection: string; field: string }) => field.collection === 'codes' && field.field === 'code').meta).toMatchObject(meta);

    const targetAuth = { Authorization: `Bearer ${await target.login()}` };
    const diff = (await target.request.post('/schema/diff').set(targetAuth).send(snapshot).expect(200)).body.data;
    await target.request.post('/schema/apply').set(targetAuth).send(diff).expect(204);
    expect((await target.request.get('/fields/codes/code').set(targetAuth).expect(200)).body.data.meta).toMatchObject(meta);
    const refused = await target.request.post('/items/codes').set(targetAuth).send({ code: 'abcd' }).expect(400);
    expect(refused.body.errors[0].message).toBe('Three capital letters.');
    await target.request.post('/schema/diff').set(targetAuth).send(snapshot).expect(204);

    // A changed message alone is a difference the diff sees.
    await source.request.patch('/fields/codes/code').set(auth).send({ meta: { validation_message: 'Exactly three capitals.' } }).expect(200);
    const changed = (await source.request.get('/schema/snapshot').set(auth).expect(200)).body.data;
    await target.request.post('/schema/diff').set(targetAuth).send(changed).expect(200);
  });
});
