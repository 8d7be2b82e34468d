import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesService } from '../../../server/services/roles-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { columnsOf, constraintsOf, metadataOf } from '../../helpers/schema-facts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Each field type and the PostgreSQL type its column gets (DESIGN.md §3). */
const TYPE_COLUMNS: Array<[string, string, number | null]> = [
  ['string', 'character varying', 255],
  ['text', 'text', null],
  ['integer', 'integer', null],
  ['bigInteger', 'bigint', null],
  ['float', 'double precision', null],
  ['decimal', 'numeric', null],
  ['boolean', 'boolean', null],
  ['date', 'date', null],
  ['time', 'time without time zone', null],
  ['dateTime', 'timestamp without time zone', null],
  ['timestamp', 'timestamp with time zone', null],
  ['json', 'jsonb', null],
  ['csv', 'text', null],
  ['uuid', 'uuid', null],
  ['hash', 'character varying', 255],
];

describe('/fields', () => {
  let t: TestApp;
  let admin: string;
  const db = () => t.system.db;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const addField = (collection: string, body: object) => t.request.post(`/fields/${collection}`).set(auth()).send(body);
  const patchField = (path: string, body: object) => t.request.patch(`/fields/${path}`).set(auth()).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'posts', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await sql`insert into posts (title) values ('first'), ('second')`.execute(db());
  });
  afterAll(() => t.close());

  it('lists new fields right away (the schema cache is invalidated)', async () => {
    const before = await t.request.get('/fields').set(auth()).expect(200);
    expect(before.body.data.some((field: { collection: string; field: string }) => field.collection === 'posts' && field.field === 'title')).toBe(true);
    await addField('posts', { field: 'subtitle', type: 'string' }).expect(200);
    const after = await t.request.get('/fields').set(auth()).expect(200);
    expect(after.body.data.some((field: { collection: string; field: string }) => field.collection === 'posts' && field.field === 'subtitle')).toBe(true);
    const inCollection = await t.request.get('/fields/posts').set(auth()).expect(200);
    expect(inCollection.body.data.map((field: { field: string }) => field.field)).toEqual(['id', 'title', 'subtitle']);
  });

  it('answers in the Directus shape', async () => {
    const response = await t.request.get('/fields/posts/title').set(auth()).expect(200);
    expect(response.body.data).toEqual({
      collection: 'posts',
      field: 'title',
      type: 'string',
      meta: expect.objectContaining({ collection: 'posts', field: 'title', interface: 'input', width: 'full', special: null, required: false }),
      schema: {
        name: 'title',
        table: 'posts',
        data_type: 'character varying',
        default_value: null,
        max_length: 255,
        numeric_precision: null,
        numeric_scale: null,
        is_nullable: true,
        is_unique: false,
        is_indexed: false,
        is_primary_key: false,
        has_auto_increment: false,
        foreign_key_table: null,
        foreign_key_column: null,
      },
    });
    const id = await t.request.get('/fields/posts/id').set(auth()).expect(200);
    expect(id.body.data.schema).toMatchObject({ is_primary_key: true, has_auto_increment: true, is_nullable: false });
    const system = await t.request.get('/fields/tessera_users/email').set(auth()).expect(200);
    expect(system.body.data).toMatchObject({ type: 'string', meta: { system: true }, schema: { is_unique: true } });
  });

  it.each(TYPE_COLUMNS)('adds a %s field as a %s column', async (type, dataType, maxLength) => {
    const name = `f_${type.toLowerCase()}`;
    // A csv field is a list only with cast-csv (without it, it is a text field: tests/integration/http/issue-31-csv-fields.test.ts).
    const meta = type === 'csv' ? { special: ['cast-csv'] } : undefined;
    const response = await addField('posts', { field: name, type, meta }).expect(200);
    expect(response.body.data).toMatchObject({ field: name, type, schema: { data_type: dataType } });
    const column = (await columnsOf(db(), 'posts'))[name];
    expect(column).toMatchObject({ data_type: dataType, character_maximum_length: maxLength });
  });

  it('gives decimals (10, 5) by default and the given precision otherwise', async () => {
    const precise = await addField('posts', { field: 'amount', type: 'decimal', schema: { numeric_precision: 12, numeric_scale: 3 } }).expect(200);
    expect(precise.body.data.schema).toMatchObject({ numeric_precision: 12, numeric_scale: 3 });
    const plain = await t.request.get('/fields/posts/f_decimal').set(auth()).expect(200);
    expect(plain.body.data.schema).toMatchObject({ numeric_precision: 10, numeric_scale: 5 });
  });

  it('adds alias fields to the metadata only', async () => {
    await addField('posts', { field: 'layout', type: 'alias', meta: { special: ['group'], interface: 'group-detail' } }).expect(200);
    expect((await columnsOf(db(), 'posts')).layout).toBeUndefined();
    const field = await t.request.get('/fields/posts/layout').set(auth()).expect(200);
    expect(field.body.data).toMatchObject({ type: 'alias', schema: null, meta: { special: ['group'] } });
    const noSpecial = await addField('posts', { field: 'floating', type: 'alias' }).expect(400);
    expect(noSpecial.body.errors[0].extensions.field).toBe('field.meta.special');
    await patchField('posts/title', { meta: { group: 'layout' } }).expect(200);
  });

  it('sets defaults, NOT NULL and UNIQUE on new columns, and refuses NOT NULL over existing rows', async () => {
    await addField('posts', { field: 'views', type: 'integer', schema: { default_value: 0, is_nullable: false } }).expect(200);
    const rows = await sql<{ views: number }>`select views from posts`.execute(db());
    expect(rows.rows.map((row) => row.views)).toEqual([0, 0]);
    const refused = await addField('posts', { field: 'mandatory', type: 'string', schema: { is_nullable: false } }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'CONTAINS_NULL_VALUES', field: 'mandatory' });
    expect((await columnsOf(db(), 'posts')).mandatory).toBeUndefined();
    await addField('posts', { field: 'slug', type: 'string', schema: { is_unique: true } }).expect(200);
    expect(await constraintsOf(db(), 'posts')).toContainEqual({ type: 'u', definition: 'UNIQUE (slug)' });
    const badDefault = await addField('posts', { field: 'rating', type: 'integer', schema: { default_value: 'high' } }).expect(400);
    expect(badDefault.body.errors[0].extensions.field).toBe('rating');
  });

  it('validates names, duplicates and metadata enumerations', async () => {
    for (const field of ['bad-name', 'x y', 'a'.repeat(64), '"; drop table posts; --', 'ctid', 'XMIN']) {
      const response = await addField('posts', { field, type: 'string' }).expect(400);
      expect(response.body.errors[0].extensions.field).toBe('field');
    }
    await addField('posts', { field: 'title', type: 'string' }).expect(400);
    const width = await addField('posts', { field: 'w', type: 'string', meta: { width: 'wide' } }).expect(400);
    expect(width.body.errors[0].extensions.field).toBe('meta.width');
    expect(width.body.errors[0].message).toContain('half, full');
    const special = await patchField('posts/title', { meta: { special: ['sparkles'] } }).expect(400);
    expect(special.body.errors[0].extensions.field).toBe('meta.special[0]');
    const translation = await patchField('posts/title', { meta: { translations: [{ translation: 'Titel' }] } }).expect(400);
    expect(translation.body.errors[0].extensions.field).toBe('meta.translations[0].language');
  });

  it('updates metadata', async () => {
    const response = await patchField('posts/title', { meta: { note: 'Headline', width: 'half', required: true, translations: [{ language: 'de-DE', translation: 'Titel' }] } }).expect(200);
    expect(response.body.data.meta).toMatchObject({ note: 'Headline', width: 'half', required: true, translations: [{ language: 'de-DE', translation: 'Titel' }] });
    const row = await db().selectFrom('tessera_fields').selectAll().where('collection', '=', 'posts').where('field', '=', 'title').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ note: 'Headline', width: 'half', required: true });
  });

  it('changes the type with ALTER COLUMN … USING, and refuses values that do not convert', async () => {
    await addField('posts', { field: 'score', type: 'string' }).expect(200);
    await sql`update posts set score = '42'`.execute(db());
    const changed = await patchField('posts/score', { type: 'integer' }).expect(200);
    expect(changed.body.data).toMatchObject({ type: 'integer', schema: { data_type: 'integer' } });
    const values = await sql<{ score: number }>`select score from posts`.execute(db());
    expect(values.rows.map((row) => row.score)).toEqual([42, 42]);
    await addField('posts', { field: 'code', type: 'string' }).expect(200);
    await sql`update posts set code = 'abc'`.execute(db());
    const refused = await patchField('posts/code', { type: 'integer' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'code' });
    expect((await columnsOf(db(), 'posts')).code?.data_type).toBe('character varying');
    await sql`update posts set f_text = repeat('x', 300)`.execute(db());
    const truncated = await patchField('posts/f_text', { type: 'string' }).expect(400);
    expect(truncated.body.errors[0].extensions).toMatchObject({ code: 'VALUE_TOO_LONG', field: 'f_text' });
    await sql`update posts set f_text = null`.execute(db());
    const csv = await patchField('posts/code', { type: 'csv', meta: { special: ['cast-csv'] } }).expect(200);
    expect(csv.body.data).toMatchObject({ type: 'csv', meta: { special: ['cast-csv'] }, schema: { data_type: 'text' } });
  });

  it('changes uniqueness, nullability, length and default, with 400 when the data violates them', async () => {
    await sql`update posts set subtitle = 'same'`.execute(db());
    const duplicate = await patchField('posts/subtitle', { schema: { is_unique: true } }).expect(400);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'subtitle' });
    await sql`update posts set subtitle = 'sub ' || id`.execute(db());
    await patchField('posts/subtitle', { schema: { is_unique: true } }).expect(200);
    expect(await constraintsOf(db(), 'posts')).toContainEqual({ type: 'u', definition: 'UNIQUE (subtitle)' });
    await patchField('posts/subtitle', { schema: { is_unique: false } }).expect(200);
    expect((await constraintsOf(db(), 'posts')).some((c) => c.definition === 'UNIQUE (subtitle)')).toBe(false);

    const nullable = await patchField('posts/f_text', { schema: { is_nullable: false } }).expect(400);
    expect(nullable.body.errors[0].extensions).toMatchObject({ code: 'CONTAINS_NULL_VALUES', field: 'f_text' });
    await sql`update posts set f_text = 'filled'`.execute(db());
    await patchField('posts/f_text', { schema: { is_nullable: false } }).expect(200);
    expect((await columnsOf(db(), 'posts')).f_text?.is_nullable).toBe('NO');

    const tooShort = await patchField('posts/subtitle', { schema: { max_length: 3 } }).expect(400);
    expect(tooShort.body.errors[0].extensions).toMatchObject({ code: 'VALUE_TOO_LONG', field: 'subtitle' });
    await patchField('posts/subtitle', { schema: { max_length: 20 } }).expect(200);
    expect((await columnsOf(db(), 'posts')).subtitle?.character_maximum_length).toBe(20);

    const withDefault = await patchField('posts/subtitle', { schema: { default_value: 'none yet' } }).expect(200);
    expect(withDefault.body.data.schema.default_value).toBe('none yet');
    const cleared = await patchField('posts/subtitle', { schema: { default_value: null } }).expect(200);
    expect(cleared.body.data.schema.default_value).toBeNull();
    expect((await columnsOf(db(), 'posts')).subtitle?.column_default).toBeNull();
  });

  it('refuses to change or delete the primary key', async () => {
    const type = await patchField('posts/id', { type: 'bigInteger' }).expect(400);
    expect(type.body.errors[0].extensions.field).toBe('id');
    await patchField('posts/id', { schema: { is_nullable: true } }).expect(400);
    await patchField('posts/title', { schema: { is_primary_key: true } }).expect(400);
    await patchField('posts/id', { meta: { note: 'Key' } }).expect(200);
    await t.request.delete('/fields/posts/id').set(auth()).expect(400);
  });

  it('deletes a field: column and metadata', async () => {
    await addField('posts', { field: 'temporary', type: 'string' }).expect(200);
    await t.request.delete('/fields/posts/temporary').set(auth()).expect(204);
    expect((await columnsOf(db(), 'posts')).temporary).toBeUndefined();
    expect((await metadataOf(db(), 'posts')).fields.some((row) => row.field === 'temporary')).toBe(false);
    await t.request.get('/fields/posts/temporary').set(auth()).expect(403);
  });

  it('answers unknown collections and fields, and system ones on write, with 403', async () => {
    await t.request.get('/fields/nowhere').set(auth()).expect(403);
    await t.request.get('/fields/posts/nothing').set(auth()).expect(403);
    await patchField('posts/nothing', { meta: { note: 'x' } }).expect(403);
    await t.request.delete('/fields/posts/nothing').set(auth()).expect(403);
    await addField('nowhere', { field: 'x', type: 'string' }).expect(403);
    await addField('tessera_users', { field: 'nickname', type: 'string' }).expect(403);
    await patchField('tessera_users/email', { meta: { note: 'x' } }).expect(403);
    await t.request.delete('/fields/tessera_users/email').set(auth()).expect(403);
  });

  it('hides fields of unreadable collections from app users, and refuses changes to non-admins and the public', async () => {
    const role = await new RolesService(t.system).create({ name: 'Writer', admin_access: false, app_access: true });
    await new UsersService(t.system).createOne({ email: 'writer@example.com', password: 'writer-password', role: role.id });
    const writer = await t.login('writer@example.com', 'writer-password');
    const visible = await t.request.get('/fields').set('Authorization', `Bearer ${writer}`).expect(200);
    const fields = visible.body.data.map((field: { collection: string; field: string }) => `${field.collection}.${field.field}`);
    expect(fields).toContain('tessera_users.first_name');
    expect(fields).not.toContain('tessera_users.token');
    expect(fields.some((name: string) => name.startsWith('posts.'))).toBe(false);
    await t.request.get('/fields').expect(403);
    for (const headers of [{ Authorization: `Bearer ${writer}` }, {}]) {
      await t.request.get('/fields/posts').set(headers).expect(403);
      await t.request.get('/fields/posts/title').set(headers).expect(403);
      await t.request.post('/fields/posts').set(headers).send({ field: 'sneaky', type: 'string' }).expect(403);
      await t.request.patch('/fields/posts/title').set(headers).send({ meta: { note: 'x' } }).expect(403);
      await t.request.delete('/fields/posts/title').set(headers).expect(403);
    }
    expect((await columnsOf(db(), 'posts')).sneaky).toBeUndefined();
  });
});
