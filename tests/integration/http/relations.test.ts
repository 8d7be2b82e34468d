import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesService } from '../../../server/services/roles-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { constraintsOf, metadataOf, tableExists } from '../../helpers/schema-facts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Collections the relations below join: name and fields (an `id` integer key is added unless a key is given). */
const COLLECTIONS: Array<[string, object[]]> = [
  ['authors', [{ field: 'name', type: 'string' }]],
  ['books', [{ field: 'title', type: 'string' }, { field: 'author', type: 'integer' }, { field: 'editor', type: 'integer' }, { field: 'owner', type: 'uuid' }]],
  ['tags', [{ field: 'label', type: 'string' }]],
  ['books_tags', [{ field: 'books_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }]],
  ['languages', [{ field: 'code', type: 'string', schema: { is_primary_key: true, max_length: 5 } }]],
  ['books_translations', [{ field: 'books_id', type: 'integer' }, { field: 'languages_code', type: 'string' }, { field: 'title', type: 'string' }]],
  ['pages', [{ field: 'title', type: 'string' }]],
  ['block_text', [{ field: 'content', type: 'text' }]],
  ['block_image', [{ field: 'url', type: 'string' }]],
  ['pages_blocks', [{ field: 'pages_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }]],
];

describe('/relations', () => {
  let t: TestApp;
  let admin: string;
  const db = () => t.system.db;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const relate = (body: object) => t.request.post('/relations').set(auth()).send(body);
  const foreignKeys = async (table: string) => (await constraintsOf(db(), table)).filter((c) => c.type === 'f').map((c) => c.definition);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    for (const [collection, fields] of COLLECTIONS) {
      await t.request.post('/collections').set(auth()).send({ collection, fields }).expect(200);
    }
  });
  afterAll(() => t.close());

  it('creates an m2o: foreign key, metadata row, o2m alias on the related collection', async () => {
    const response = await relate({ collection: 'books', field: 'author', related_collection: 'authors', meta: { one_field: 'books' }, schema: { on_delete: 'CASCADE' } }).expect(200);
    expect(response.body.data).toMatchObject({
      collection: 'books',
      field: 'author',
      related_collection: 'authors',
      meta: { many_collection: 'books', many_field: 'author', one_collection: 'authors', one_field: 'books', one_deselect_action: 'nullify' },
      schema: { table: 'books', column: 'author', foreign_key_table: 'authors', foreign_key_column: 'id', on_delete: 'CASCADE' },
    });
    expect(await foreignKeys('books')).toContain('FOREIGN KEY (author) REFERENCES authors(id) ON DELETE CASCADE');
    const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'books' and indexname = 'books_author_index'`.execute(db());
    expect(indexes.rows.map((row) => row.indexdef)).toEqual(['CREATE INDEX books_author_index ON public.books USING btree (author)']);
    const alias = await t.request.get('/fields/authors/books').set(auth()).expect(200);
    expect(alias.body.data).toMatchObject({ type: 'alias', schema: null, meta: { special: ['o2m'], interface: 'list-o2m' } });
    const field = await t.request.get('/fields/books/author').set(auth()).expect(200);
    expect(field.body.data).toMatchObject({ meta: { special: ['m2o'] }, schema: { foreign_key_table: 'authors', foreign_key_column: 'id' } });
  });

  it('makes the database apply on_delete: CASCADE, SET NULL by default, then RESTRICT after PATCH', async () => {
    await relate({ collection: 'books', field: 'editor', related_collection: 'authors' }).expect(200);
    expect(await foreignKeys('books')).toContain('FOREIGN KEY (editor) REFERENCES authors(id) ON DELETE SET NULL');
    await sql`insert into authors (id, name) values (1, 'Ann'), (2, 'Bob'), (3, 'Cy')`.execute(db());
    await sql`insert into books (title, author, editor) values ('A', 1, 2), ('B', 2, 1)`.execute(db());
    await sql`delete from authors where id = 1`.execute(db());
    const rows = await sql<{ title: string; author: number; editor: number | null }>`select title, author, editor from books order by title`.execute(db());
    expect(rows.rows).toEqual([{ title: 'B', author: 2, editor: null }]);
    await expect(sql`insert into books (title, author) values ('C', 99)`.execute(db())).rejects.toMatchObject({ code: '23503' });

    const patched = await t.request.patch('/relations/books/author').set(auth()).send({ schema: { on_delete: 'RESTRICT' }, meta: { one_deselect_action: 'delete' } }).expect(200);
    expect(patched.body.data).toMatchObject({ meta: { one_deselect_action: 'delete', one_field: 'books' }, schema: { on_delete: 'RESTRICT' } });
    expect(await foreignKeys('books')).toContain('FOREIGN KEY (author) REFERENCES authors(id) ON DELETE RESTRICT');
    await expect(sql`delete from authors where id = 2`.execute(db())).rejects.toMatchObject({ code: '23503' });
  });

  it('validates relations: enumerations, key types, duplicates, fields', async () => {
    const onDelete = await relate({ collection: 'books', field: 'owner', related_collection: 'tessera_users', schema: { on_delete: 'EXPLODE' } }).expect(400);
    expect(onDelete.body.errors[0].extensions.field).toBe('schema.on_delete');
    expect(onDelete.body.errors[0].message).toContain('SET NULL, CASCADE, NO ACTION, RESTRICT, SET DEFAULT');
    const deselect = await relate({ collection: 'books', field: 'owner', related_collection: 'tessera_users', meta: { one_deselect_action: 'drop' } }).expect(400);
    expect(deselect.body.errors[0].extensions.field).toBe('meta.one_deselect_action');
    expect(deselect.body.errors[0].message).toContain('nullify, delete');
    const type = await relate({ collection: 'books', field: 'title', related_collection: 'authors' }).expect(400);
    expect(type.body.errors[0].extensions.field).toBe('field');
    await relate({ collection: 'books', field: 'author', related_collection: 'authors' }).expect(400);
    await relate({ collection: 'books', field: 'missing', related_collection: 'authors' }).expect(400);
    const related = await relate({ collection: 'books', field: 'owner', related_collection: 'nowhere' }).expect(400);
    expect(related.body.errors[0].extensions.field).toBe('related_collection');
    const alias = await relate({ collection: 'books', field: 'owner', related_collection: 'tessera_users', meta: { one_field: 'books' } }).expect(400);
    expect(alias.body.errors[0].extensions.field).toBe('meta.one_field');
    await t.request.post('/fields/books').set(auth()).send({ field: 'co_author', type: 'integer' }).expect(200);
    const taken = await relate({ collection: 'books', field: 'co_author', related_collection: 'authors', meta: { one_field: 'books' } }).expect(400);
    expect(taken.body.errors[0].extensions.field).toBe('meta.one_field');
    await relate({ collection: 'tessera_users', field: 'role', related_collection: 'tessera_roles' }).expect(403);
    await relate({ collection: 'nowhere', field: 'x', related_collection: 'authors' }).expect(403);
  });

  it('relates user collections to system ones (uuid keys)', async () => {
    const response = await relate({ collection: 'books', field: 'owner', related_collection: 'tessera_users' }).expect(200);
    expect(response.body.data.schema).toMatchObject({ foreign_key_table: 'tessera_users', foreign_key_column: 'id', on_delete: 'SET NULL' });
  });

  it('creates an m2m through a junction collection', async () => {
    await relate({ collection: 'books_tags', field: 'books_id', related_collection: 'books', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } }).expect(200);
    await relate({ collection: 'books_tags', field: 'tags_id', related_collection: 'tags', meta: { one_field: 'books' }, schema: { on_delete: 'CASCADE' } }).expect(200);
    const list = await t.request.get('/relations/books_tags').set(auth()).expect(200);
    expect(list.body.data.map((relation: { field: string; meta: { junction_field: string } }) => [relation.field, relation.meta.junction_field])).toEqual([
      ['books_id', 'tags_id'],
      ['tags_id', 'books_id'],
    ]);
    const tagsAlias = await t.request.get('/fields/books/tags').set(auth()).expect(200);
    expect(tagsAlias.body.data).toMatchObject({ type: 'alias', meta: { special: ['m2m'], interface: 'list-m2m' } });
    const junction = await t.request.get('/fields/books_tags/books_id').set(auth()).expect(200);
    expect(junction.body.data.schema.foreign_key_table).toBe('books');
  });

  it('supports translations as an m2m whose alias carries the translations special', async () => {
    await t.request.post('/fields/books').set(auth()).send({ field: 'translations', type: 'alias', meta: { special: ['translations'], interface: 'translations' } }).expect(200);
    await relate({ collection: 'books_translations', field: 'books_id', related_collection: 'books', meta: { one_field: 'translations' }, schema: { on_delete: 'CASCADE' } }).expect(200);
    await relate({ collection: 'books_translations', field: 'languages_code', related_collection: 'languages', meta: { junction_field: 'books_id' } }).expect(200);
    const first = await t.request.get('/relations/books_translations/books_id').set(auth()).expect(200);
    expect(first.body.data.meta.junction_field).toBe('languages_code');
    const alias = await t.request.get('/fields/books/translations').set(auth()).expect(200);
    expect(alias.body.data.meta.special).toEqual(['translations']);
    expect(await foreignKeys('books_translations')).toContain('FOREIGN KEY (languages_code) REFERENCES languages(code) ON DELETE SET NULL');
  });

  it('creates an m2a: no related collection, no foreign key, allowed collections', async () => {
    const missing = await relate({ collection: 'pages_blocks', field: 'item', related_collection: null, meta: { one_allowed_collections: ['block_text'] } }).expect(400);
    expect(missing.body.errors[0].extensions.field).toBe('meta.one_collection_field');
    const unknown = await relate({ collection: 'pages_blocks', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'nope'] } }).expect(400);
    expect(unknown.body.errors[0].extensions.field).toBe('meta.one_allowed_collections');
    const response = await relate({
      collection: 'pages_blocks',
      field: 'item',
      related_collection: null,
      meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_image'], junction_field: 'pages_id' },
    }).expect(200);
    expect(response.body.data).toMatchObject({ related_collection: null, schema: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_image'] } });
    await relate({ collection: 'pages_blocks', field: 'pages_id', related_collection: 'pages', meta: { one_field: 'blocks', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } }).expect(200);
    expect(await foreignKeys('pages_blocks')).toEqual(['FOREIGN KEY (pages_id) REFERENCES pages(id) ON DELETE CASCADE']);
    const alias = await t.request.get('/fields/pages/blocks').set(auth()).expect(200);
    expect(alias.body.data.meta.special).toEqual(['m2a']);
  });

  it('reads relations: system ones, per collection, per field; 403 for unknown ones', async () => {
    const all = await t.request.get('/relations').set(auth()).expect(200);
    const usersRole = all.body.data.find((relation: { collection: string; field: string }) => relation.collection === 'tessera_users' && relation.field === 'role');
    expect(usersRole).toMatchObject({ related_collection: 'tessera_roles', meta: { system: true, one_field: 'users' }, schema: { on_delete: 'SET NULL' } });
    const books = await t.request.get('/relations/books').set(auth()).expect(200);
    expect(books.body.data.map((relation: { field: string }) => relation.field).sort()).toEqual(['author', 'editor', 'owner']);
    await t.request.get('/relations/books/title').set(auth()).expect(403);
    await t.request.get('/relations/nowhere').set(auth()).expect(403);
    await t.request.patch('/relations/books/title').set(auth()).send({ meta: {} }).expect(403);
    await t.request.delete('/relations/nowhere/x').set(auth()).expect(403);
  });

  it('lists fields.group → fields, a match by field name within the collection that the database enforces', async () => {
    const expected = {
      collection: 'tessera_fields',
      field: 'group',
      related_collection: 'tessera_fields',
      meta: { system: true, one_field: null, match: 'name-within-collection' },
      schema: { foreign_key_column: 'field', columns: ['collection', 'group'], foreign_key_columns: ['collection', 'field'], on_delete: 'SET NULL', on_update: 'CASCADE' },
    };
    const all = await t.request.get('/relations').set(auth()).expect(200);
    const listed = all.body.data.filter((relation: { collection: string; field: string }) => relation.collection === 'tessera_fields' && relation.field === 'group');
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject(expected);
    const inFields = await t.request.get('/relations/tessera_fields').set(auth()).expect(200);
    expect(inFields.body.data.map((relation: { field: string }) => relation.field).sort()).toEqual(['collection', 'group']);
    expect((await t.request.get('/relations/tessera_fields/group').set(auth()).expect(200)).body.data).toMatchObject(expected);
    // What the response claims is the database's own constraint.
    const groupKeys = (await constraintsOf(db(), 'tessera_fields')).filter((c) => c.type === 'f' && c.definition.includes('"group"'));
    expect(groupKeys.map((c) => c.definition)).toEqual([expect.stringMatching(/FOREIGN KEY \(collection, "group"\) REFERENCES tessera_fields\(collection, field\) ON UPDATE CASCADE ON DELETE SET NULL/)]);
    // ...and it behaves as one: deleting the group empties the child's group.
    await t.request.post('/fields/pages').set(auth()).send({ field: 'box', type: 'alias', meta: { special: ['alias', 'no-data', 'group'], interface: 'group-raw' } }).expect(200);
    await t.request.post('/fields/pages').set(auth()).send({ field: 'caption', type: 'string', meta: { group: 'box' } }).expect(200);
    await t.request.post('/fields/pages').set(auth()).send({ field: 'stray', type: 'string', meta: { group: 'nothing_here' } }).expect((response) => expect(response.status).toBe(400));
    await t.request.delete('/fields/pages/box').set(auth()).expect(204);
    expect((await t.request.get('/fields/pages/caption').set(auth()).expect(200)).body.data.meta.group).toBeNull();
    // A system relation: not changed, not deleted, not created again.
    await t.request.patch('/relations/tessera_fields/group').set(auth()).send({ meta: { one_field: 'children' } }).expect(403);
    await t.request.delete('/relations/tessera_fields/group').set(auth()).expect(403);
    await t.request.post('/relations').set(auth()).send({ collection: 'tessera_fields', field: 'group', related_collection: 'tessera_fields' }).expect(403);
  });

  it('deletes a relation: foreign key, row and o2m alias', async () => {
    await t.request.delete('/relations/books/editor').set(auth()).expect(204);
    expect((await foreignKeys('books')).some((definition) => definition.startsWith('FOREIGN KEY (editor)'))).toBe(false);
    await t.request.get('/relations/books/editor').set(auth()).expect(403);
    await t.request.patch('/relations/books/author').set(auth()).send({ meta: { one_field: null } }).expect(200);
    await t.request.get('/fields/authors/books').set(auth()).expect(403);
  });

  it('deletes the relations of a deleted field and of a deleted collection', async () => {
    await t.request.delete('/fields/books/owner').set(auth()).expect(204);
    await t.request.get('/relations/books/owner').set(auth()).expect(403);

    await t.request.delete('/collections/authors').set(auth()).expect(204);
    expect(await tableExists(db(), 'authors')).toBe(false);
    expect(await foreignKeys('books')).toEqual([]);
    expect((await metadataOf(db(), 'authors')).relations).toEqual([]);
    await t.request.get('/relations/books/author').set(auth()).expect(403);

    await t.request.delete('/collections/block_text').set(auth()).expect(204);
    const m2a = await t.request.get('/relations/pages_blocks/item').set(auth()).expect(200);
    expect(m2a.body.data.meta.one_allowed_collections).toEqual(['block_image']);

    await t.request.delete('/collections/books_tags').set(auth()).expect(204);
    await t.request.get('/fields/books/tags').set(auth()).expect(403);
    await t.request.get('/fields/tags/books').set(auth()).expect(403);
  });

  it('hides relations of unreadable collections from app users, and refuses changes to non-admins and the public', async () => {
    const role = await new RolesService(t.system).create({ name: 'Reader', admin_access: false, app_access: true });
    await new UsersService(t.system).createOne({ email: 'reader@example.com', password: 'reader-password', role: role.id });
    const reader = await t.login('reader@example.com', 'reader-password');
    const visible = await t.request.get('/relations').set('Authorization', `Bearer ${reader}`).expect(200);
    const relations = visible.body.data.map((relation: { collection: string; field: string }) => `${relation.collection}.${relation.field}`);
    expect(relations).toContain('tessera_users.role');
    expect(relations.some((name: string) => name.startsWith('books.') || name.startsWith('pages_blocks.'))).toBe(false);
    await t.request.get('/relations').expect(403);
    for (const headers of [{ Authorization: `Bearer ${reader}` }, {}]) {
      await t.request.get('/relations/books').set(headers).expect(403);
      await t.request.post('/relations').set(headers).send({ collection: 'books', field: 'editor', related_collection: 'tags' }).expect(403);
      await t.request.patch('/relations/pages_blocks/pages_id').set(headers).send({ schema: { on_delete: 'NO ACTION' } }).expect(403);
      await t.request.delete('/relations/pages_blocks/pages_id').set(headers).expect(403);
    }
    expect(await foreignKeys('pages_blocks')).toEqual(['FOREIGN KEY (pages_id) REFERENCES pages(id) ON DELETE CASCADE']);
  });
});
