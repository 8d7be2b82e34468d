import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRelation, primaryKeyType, type ApiStep, type RelationInput } from '../../../admin/src/modules/data-model/relation-plan.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The data model screen's relation plans, run against the real API as the screen runs them. */
describe('admin relation plans against the API', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  async function run(step: ApiStep) {
    const request = step.method === 'POST' ? t.request.post(step.path) : t.request.delete(step.path);
    return request.set(auth()).send(step.body ?? {});
  }

  async function create(input: RelationInput) {
    const keyTypes = Object.fromEntries(
      await Promise.all([input.collection, ...(input.kind === 'm2a' ? [] : [input.related])].map(async (name) => [name, primaryKeyType((await t.request.get(`/fields/${name}`).set(auth()).expect(200)).body.data)])),
    );
    for (const step of planRelation(input, keyTypes).steps) expect((await run(step)).status, `${step.method} ${step.path}`).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'books', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(auth()).send({ collection: 'tags', fields: [{ field: 'code', type: 'string', schema: { is_primary_key: true } }] }).expect(200);
    await t.request.post('/collections').set(auth()).send({ collection: 'authors', fields: [{ field: 'id', type: 'uuid', schema: { is_primary_key: true } }, { field: 'name', type: 'string' }] }).expect(200);
  });
  afterAll(() => t.close());

  it('m2o with an o2m alias: nested reads work both ways', async () => {
    await create({ kind: 'm2o', collection: 'books', field: 'author', related: 'authors', reverseField: 'books' });
    const author = await t.request.post('/items/authors').set(auth()).send({ name: 'Ada' }).expect(200);
    await t.request.post('/items/books').set(auth()).send({ title: 'Notes', author: author.body.data.id }).expect(200);
    const read = await t.request.get('/items/authors').query({ fields: 'name,books.title' }).set(auth()).expect(200);
    expect(read.body.data).toEqual([{ name: 'Ada', books: [{ title: 'Notes' }] }]);
  });

  it('o2m: the key lands on the related collection', async () => {
    await t.request.post('/collections').set(auth()).send({ collection: 'chapters', fields: [{ field: 'heading', type: 'string' }] }).expect(200);
    await create({ kind: 'o2m', collection: 'books', field: 'chapters', related: 'chapters' });
    const book = await t.request.post('/items/books').set(auth()).send({ title: 'Long', chapters: [{ heading: 'One' }, { heading: 'Two' }] }).expect(200);
    const read = await t.request.get(`/items/books/${book.body.data.id}`).query({ fields: 'chapters.heading' }).set(auth()).expect(200);
    expect(read.body.data.chapters.map((chapter: { heading: string }) => chapter.heading).sort()).toEqual(['One', 'Two']);
  });

  it('m2m through a new junction, with a string key on one side', async () => {
    await create({ kind: 'm2m', collection: 'books', field: 'tags', related: 'tags' });
    await t.request.post('/items/tags').set(auth()).send([{ code: 'sci' }, { code: 'art' }]).expect(200);
    const created = await t.request.post('/items/books').set(auth()).send({ title: 'Tagged', tags: [{ tags_id: 'sci' }, { tags_id: 'art' }] }).expect(200);
    const read = await t.request.get(`/items/books/${created.body.data.id}`).query({ fields: 'tags.tags_id.code' }).set(auth()).expect(200);
    expect(read.body.data.tags.map((link: { tags_id: { code: string } }) => link.tags_id.code).sort()).toEqual(['art', 'sci']);
    const junction = await t.request.get('/collections/books_tags').set(auth()).expect(200);
    expect(junction.body.data.meta.hidden).toBe(true);
  });

  it('m2a through a new junction: items of two collections (integer and uuid keys), the alias gets list-m2a', async () => {
    await create({ kind: 'm2a', collection: 'books', field: 'sections', related: '', allowed: ['chapters', 'authors'] });
    const alias = await t.request.get('/fields/books/sections').set(auth()).expect(200);
    expect(alias.body.data.meta).toMatchObject({ special: ['m2a'], interface: 'list-m2a' });
    const author = await t.request.post('/items/authors').set(auth()).send({ name: 'Grace' }).expect(200);
    const created = await t.request
      .post('/items/books')
      .set(auth())
      .send({ title: 'Mixed', sections: [{ collection: 'chapters', item: { heading: 'Intro' } }, { collection: 'authors', item: author.body.data.id }] })
      .expect(200);
    const read = await t.request.get(`/items/books/${created.body.data.id}`).query({ fields: 'sections.collection,sections.item:chapters.heading,sections.item:authors.name' }).set(auth()).expect(200);
    expect(read.body.data.sections).toEqual([
      { collection: 'chapters', item: { heading: 'Intro' } },
      { collection: 'authors', item: { name: 'Grace' } },
    ]);
    // A new item of a collection the relation does not allow is refused.
    await t.request.post('/items/books').set(auth()).send({ title: 'Bad', sections: [{ collection: 'tags', item: { code: 'new' } }] }).expect(400);
  });
});
