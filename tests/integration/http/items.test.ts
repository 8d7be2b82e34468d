import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const COLLECTIONS: Array<[string, object[]]> = [
  ['authors', [{ field: 'name', type: 'string', schema: { is_nullable: false } }, { field: 'email', type: 'string', schema: { is_unique: true } }]],
  [
    'articles',
    [
      { field: 'title', type: 'string', schema: { max_length: 40 }, meta: { required: true } },
      { field: 'views', type: 'integer' },
      { field: 'published_on', type: 'timestamp' },
      { field: 'data', type: 'json' },
      { field: 'labels', type: 'csv', meta: { special: ['cast-csv'] } },
      { field: 'author', type: 'integer' },
      { field: 'created', type: 'timestamp', meta: { special: ['date-created'] } },
      { field: 'created_by', type: 'uuid', meta: { special: ['user-created'] } },
    ],
  ],
  ['comments', [{ field: 'body', type: 'text' }, { field: 'article', type: 'integer' }]],
  ['tags', [{ field: 'label', type: 'string' }]],
  ['articles_tags', [{ field: 'articles_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }]],
  ['site', [{ field: 'headline', type: 'string' }]],
];

describe('/items', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const items = (path: string) => `/items/${path}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    for (const [collection, fields] of COLLECTIONS) await t.request.post('/collections').set(auth()).send({ collection, fields }).expect(200);
    await t.request.patch('/collections/site').set(auth()).send({ meta: { singleton: true } }).expect(200);
    await t.request.patch('/collections/comments').set(auth()).send({ meta: { accountability: 'activity' } }).expect(200);
    const relate = (body: object) => t.request.post('/relations').set(auth()).send(body).expect(200);
    await relate({ collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
    await relate({ collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments', one_deselect_action: 'delete' } });
    await relate({ collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
    await relate({ collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });
  });
  afterAll(() => t.close());

  it('creates an item with nested m2o, o2m and m2m in one request and reads it back in one go', async () => {
    const created = await t.request
      .post(items('articles?fields=*,author.name,comments.body,tags.tags_id.label'))
      .set(auth())
      .send({
        title: 'Hello',
        views: 3,
        data: [1, { a: true }],
        labels: ['news', 'tech'],
        author: { name: 'Ada', email: 'ada@example.com' },
        comments: [{ body: 'First!' }, { body: 'Second' }],
        tags: [{ tags_id: { label: 'intro' } }],
      })
      .expect(200);
    const article = created.body.data;
    expect(article).toMatchObject({ title: 'Hello', views: 3, data: [1, { a: true }], labels: ['news', 'tech'], author: { name: 'Ada' }, tags: [{ tags_id: { label: 'intro' } }] });
    expect(article.comments.map((c: { body: string }) => c.body).sort()).toEqual(['First!', 'Second']);
    expect(new Date(article.created).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const me = await t.request.get('/users/me').set(auth());
    expect(article.created_by).toBe(me.body.data.id);
  });

  it('lists with filter, sort, limit and meta counts', async () => {
    await t.request.post(items('articles')).set(auth()).send([{ title: 'B second', views: 10 }, { title: 'A first', views: 20 }]).expect(200);
    const list = await t.request.get(items('articles')).query({ filter: JSON.stringify({ views: { _gte: 10 } }), sort: 'title', fields: 'title,views', meta: '*' }).set(auth()).expect(200);
    expect(list.body.data).toEqual([{ title: 'A first', views: 20 }, { title: 'B second', views: 10 }]);
    expect(list.body.meta).toEqual({ total_count: 3, filter_count: 2 });
  });

  it('updates one, a batch by keys, by query and by array; PATCH reads back', async () => {
    const { body } = await t.request.get(items('articles?fields=id,title&sort=id')).set(auth()).expect(200);
    const [first, second, third] = body.data.map((a: { id: number }) => a.id);
    const one = await t.request.patch(items(`articles/${first}`)).set(auth()).send({ views: 100 }).expect(200);
    expect(one.body.data).toMatchObject({ id: first, views: 100 });
    const byKeys = await t.request.patch(items('articles')).set(auth()).send({ keys: [second, third], data: { views: 7 } }).expect(200);
    expect(byKeys.body.data.map((a: { views: number }) => a.views)).toEqual([7, 7]);
    const byQuery = await t.request.patch(items('articles')).set(auth()).send({ query: { filter: { views: { _eq: 7 } } }, data: { views: 8 } }).expect(200);
    expect(byQuery.body.data).toHaveLength(2);
    const batch = await t.request.patch(items('articles')).set(auth()).send([{ id: second, title: 'B renamed' }, { id: third, title: 'A renamed' }]).expect(200);
    expect(batch.body.data.map((a: { title: string }) => a.title).sort()).toEqual(['A renamed', 'B renamed']);
  });

  it('replaces o2m children, deleting deselected ones per one_deselect_action', async () => {
    const { body } = await t.request.get(items('articles?filter[title][_eq]=Hello&fields=id,comments.id')).set(auth()).expect(200);
    const [article] = body.data;
    const keep = article.comments[0].id;
    const replaced = await t.request.patch(items(`articles/${article.id}`)).set(auth()).send({ comments: [keep, { body: 'Third' }] });
    expect(replaced.body.errors).toBeUndefined();
    const after = await t.request.get(items(`articles/${article.id}?fields=comments.body,comments.id`)).set(auth()).expect(200);
    expect(after.body.data.comments).toHaveLength(2);
    const all = await t.request.get(items('comments?aggregate[count]=*')).set(auth()).expect(200);
    expect(all.body.data).toEqual([{ count: 2 }]);
  });

  it('validates payloads: 400 with a code naming the field, nothing written', async () => {
    const cases: Array<[object, string, string]> = [
      [{ title: 'x'.repeat(41) }, 'title', 'VALUE_TOO_LONG'],
      [{ title: 'ok', views: 'many' }, 'views', 'INVALID_PAYLOAD'],
      [{ title: 'ok', views: 1.5 }, 'views', 'INVALID_PAYLOAD'],
      [{ title: 'ok', views: 3_000_000_000 }, 'views', 'VALUE_OUT_OF_RANGE'],
      [{ title: 'ok', published_on: 'yesterday' }, 'published_on', 'INVALID_PAYLOAD'],
      [{ title: 'ok', nope: 1 }, 'nope', 'INVALID_PAYLOAD'],
      [{ views: 1 }, 'title', 'INVALID_PAYLOAD'],
      [{ title: null }, 'title', 'NOT_NULL_VIOLATION'],
    ];
    for (const [payload, field, code] of cases) {
      const response = await t.request.post(items('articles')).set(auth()).send(payload).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code, field });
    }
    const before = await t.request.get(items('articles?aggregate[count]=*')).set(auth());
    await t.request.post(items('articles')).set(auth()).send([{ title: 'valid' }, { title: 'y'.repeat(50) }]).expect(400);
    const after = await t.request.get(items('articles?aggregate[count]=*')).set(auth());
    expect(after.body.data).toEqual(before.body.data);
  });

  it('translates database errors: unique and foreign key', async () => {
    const duplicate = await t.request.post(items('authors')).set(auth()).send({ name: 'Copy', email: 'ada@example.com' }).expect(400);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'email' });
    const dangling = await t.request.post(items('articles')).set(auth()).send({ title: 'Orphan', author: 999_999 }).expect(400);
    expect(dangling.body.errors[0].extensions).toMatchObject({ code: 'INVALID_FOREIGN_KEY', field: 'author' });
  });

  it('answers 403 for missing items, system collections and non-admins', async () => {
    await t.request.get(items('articles/999999')).set(auth()).expect(403);
    await t.request.get(items('articles/not-a-number')).set(auth()).expect(403);
    await t.request.patch(items('articles/999999')).set(auth()).send({ views: 1 }).expect(403);
    await t.request.delete(items('articles/999999')).set(auth()).expect(403);
    await t.request.get(items('tessera_users')).set(auth()).expect(403);
    await t.request.get(items('no_such_collection')).set(auth()).expect(403);
    await t.request.get(items('articles')).expect(403);
    await new UsersService(t.system).createOne({ email: 'plain@example.com', password: 'plain-pass-1' });
    const plain = await t.login('plain@example.com', 'plain-pass-1');
    await t.request.get(items('articles')).set({ Authorization: `Bearer ${plain}` }).expect(403);
  });

  it('refuses a batch delete that includes a missing item, then deletes by keys and by query', async () => {
    const { body } = await t.request.post(items('tags')).set(auth()).send([{ label: 'a' }, { label: 'b' }, { label: 'c' }]).expect(200);
    const [a, b, c] = body.data.map((tag: { id: number }) => tag.id);
    await t.request.delete(items('tags')).set(auth()).send([a, 999_999]).expect(403);
    await t.request.get(items(`tags/${a}`)).set(auth()).expect(200);
    await t.request.delete(items('tags')).set(auth()).send({ keys: [a] }).expect(204);
    await t.request.delete(items('tags')).set(auth()).send({ query: { filter: { label: { _eq: 'b' } } } }).expect(204);
    await t.request.delete(items(`tags/${c}`)).set(auth()).expect(204);
    const left = await t.request.get(items('tags?fields=label')).set(auth()).expect(200);
    expect(left.body.data).toEqual([{ label: 'intro' }]);
  });

  it('reads and upserts a singleton at /items/:collection', async () => {
    expect((await t.request.get(items('site')).set(auth()).expect(200)).body.data).toBeNull();
    await t.request.patch(items('site')).set(auth()).send({ headline: 'Welcome' }).expect(200);
    const updated = await t.request.patch(items('site')).set(auth()).send({ headline: 'Hello again' }).expect(200);
    expect(updated.body.data.headline).toBe('Hello again');
    expect((await t.request.get(items('site')).set(auth())).body.data).toMatchObject({ headline: 'Hello again' });
  });

  it('records activity and revisions per accountability, in the same transaction', async () => {
    const created = await t.request.post(items('articles')).set(auth()).set('User-Agent', 'audit-agent').send({ title: 'Audited' }).expect(200);
    const id = String(created.body.data.id);
    await t.request.patch(items(`articles/${id}`)).set(auth()).send({ views: 5 }).expect(200);
    const activity = await t.system.db.selectFrom('tessera_activity').selectAll().where('collection', '=', 'articles').where('item', '=', id).orderBy('id').execute();
    expect(activity.map((row) => row.action)).toEqual(['create', 'update']);
    expect(activity[0]).toMatchObject({ user_agent: 'audit-agent' });
    expect(activity[0]!.user).toBeTruthy();
    const revisions = await t.system.db.selectFrom('tessera_revisions').selectAll().where('collection', '=', 'articles').where('item', '=', id).orderBy('id').execute();
    expect(revisions).toHaveLength(2);
    expect(revisions[1]!.delta).toEqual({ views: 5 });
    expect(revisions[1]!.data).toMatchObject({ title: 'Audited', views: 5 });

    const comment = await t.request.post(items('comments')).set(auth()).send({ body: 'only activity' }).expect(200);
    const commentRevisions = await t.system.db.selectFrom('tessera_revisions').select('id').where('collection', '=', 'comments').where('item', '=', String(comment.body.data.id)).execute();
    expect(commentRevisions).toHaveLength(0);
    const commentActivity = await t.system.db.selectFrom('tessera_activity').select('id').where('collection', '=', 'comments').where('item', '=', String(comment.body.data.id)).execute();
    expect(commentActivity).toHaveLength(1);
  });

  it('exports a read as csv, json, yaml or xml with a file name', async () => {
    const csv = await t.request.get(items('articles?fields=title,author.name,labels&filter[title][_eq]=Hello&export=csv')).set(auth()).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="articles-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(csv.text.trim().split('\n')).toEqual(['title,author.name,labels', 'Hello,Ada,"[""news"",""tech""]"']);
    const json = await t.request.get(items('articles?fields=title&filter[title][_eq]=Hello&export=json')).set(auth()).expect(200);
    expect(JSON.parse(json.text)).toEqual([{ title: 'Hello' }]);
    const yaml = await t.request.get(items('articles?fields=title&filter[title][_eq]=Hello&export=yaml')).set(auth()).expect(200);
    expect(yaml.text).toBe('- title: Hello\n');
    // XML as Directus writes it: <data> holding a <data> per item, a list as repeated elements, text escaped.
    const xml = await t.request.get(items('articles?fields=title,author.name,labels&filter[title][_eq]=Hello&export=xml')).set(auth()).expect(200);
    expect(xml.headers['content-type']).toMatch(/^text\/xml/);
    expect(xml.headers['content-disposition']).toMatch(/attachment; filename="articles-\d{4}-\d{2}-\d{2}\.xml"/);
    const document = new DOMParser().parseFromString(xml.text, 'text/xml');
    const item = document.documentElement.getElementsByTagName('data')[0]!;
    expect(document.documentElement.tagName).toBe('data');
    expect(item.getElementsByTagName('title')[0]!.textContent).toBe('Hello');
    expect(item.getElementsByTagName('author')[0]!.getElementsByTagName('name')[0]!.textContent).toBe('Ada');
    const labels = item.getElementsByTagName('labels');
    expect(Array.from({ length: labels.length }, (_, n) => labels.item(n)!.textContent)).toEqual(['news', 'tech']);
    const bad = await t.request.get(items('articles?export=pdf')).set(auth()).expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'export' });
  });
});
