import { describe, expect, it } from 'vitest';
import { planRelation, primaryKeyType, undoSteps } from '../../../../admin/src/modules/data-model/relation-plan.ts';

describe('relation plans', () => {
  it('m2o: a key column of the related key type, then the relation with the optional o2m alias', () => {
    const plan = planRelation({ kind: 'm2o', collection: 'books', field: 'author', related: 'authors', reverseField: 'books', onDelete: 'CASCADE' }, { authors: 'uuid' });
    expect(plan.steps).toEqual([
      { method: 'POST', path: '/fields/books', body: { field: 'author', type: 'uuid', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] }, schema: {} } },
      { method: 'POST', path: '/relations', body: { collection: 'books', field: 'author', related_collection: 'authors', meta: { one_field: 'books', one_deselect_action: 'nullify' }, schema: { on_delete: 'CASCADE' } } },
    ]);
    expect(undoSteps(plan, 1)).toEqual([{ method: 'DELETE', path: '/fields/books/author' }]);
  });

  it('m2o to files: a file field, edited with the file library', () => {
    const plan = planRelation({ kind: 'm2o', collection: 'books', field: 'cover', related: 'tessera_files' }, { tessera_files: 'uuid' });
    expect(plan.steps[0]!.body).toEqual({ field: 'cover', type: 'uuid', meta: { interface: 'file', special: ['m2o'] }, schema: {} });
  });

  it('image: a many-to-one to the file library shown as an image, whatever related collection the form held', () => {
    const plan = planRelation({ kind: 'image', collection: 'books', field: 'cover', related: '' }, { tessera_files: 'uuid' });
    expect(plan.steps[0]!.body).toEqual({ field: 'cover', type: 'uuid', meta: { interface: 'file-image', special: ['m2o'] }, schema: {} });
    expect(plan.steps[1]!.body).toMatchObject({ related_collection: 'tessera_files' });
  });

  it('files: a junction to the file library and an alias with the files special, made before the relations', () => {
    const plan = planRelation({ kind: 'files', collection: 'books', field: 'gallery', related: '' }, { tessera_files: 'uuid' });
    expect(plan.steps.map((step) => [step.method, step.path])).toEqual([['POST', '/collections'], ['POST', '/fields/books'], ['POST', '/relations'], ['POST', '/relations']]);
    expect(plan.steps[0]!.body).toMatchObject({ collection: 'books_files', fields: [{ field: 'books_id', type: 'integer' }, { field: 'tessera_files_id', type: 'uuid' }] });
    expect(plan.steps[1]!.body).toEqual({ field: 'gallery', type: 'alias', meta: { special: ['files'], interface: 'files' } });
    expect(plan.steps[3]!.body).toMatchObject({ collection: 'books_files', field: 'tessera_files_id', related_collection: 'tessera_files', meta: { junction_field: 'books_id' } });
    // A failing relation takes the alias and the junction away again, last first.
    expect(undoSteps(plan, 2)).toEqual([{ method: 'DELETE', path: '/fields/books/gallery' }, { method: 'DELETE', path: '/collections/books_files' }]);
  });

  it('translations: a new languages collection with its languages first, a string key to it, rows deleted when deselected', () => {
    const plan = planRelation({ kind: 'translations', collection: 'books', field: 'translations', related: 'languages', createLanguages: [{ code: 'en-US', name: 'English' }] }, {});
    expect(plan.steps.map((step) => [step.method, step.path])).toEqual([['POST', '/collections'], ['POST', '/items/languages'], ['POST', '/collections'], ['POST', '/fields/books'], ['POST', '/relations'], ['POST', '/relations']]);
    expect(plan.steps[0]!.body).toMatchObject({ collection: 'languages', fields: [{ field: 'code', schema: { is_primary_key: true } }, { field: 'name' }] });
    expect(plan.steps[1]!.body).toEqual([{ code: 'en-US', name: 'English' }]);
    expect(plan.steps[2]!.body).toMatchObject({ collection: 'books_translations', fields: [{ field: 'books_id', type: 'integer' }, { field: 'languages_code', type: 'string' }] });
    expect(plan.steps[4]!.body).toMatchObject({ field: 'books_id', meta: { one_field: 'translations', junction_field: 'languages_code', one_deselect_action: 'delete' } });
    expect(undoSteps(plan, 4).at(-1)).toEqual({ method: 'DELETE', path: '/collections/languages' });
  });

  it('o2m: the key goes on the related collection, the alias on this one', () => {
    const plan = planRelation({ kind: 'o2m', collection: 'authors', field: 'books', related: 'books', deselectAction: 'delete' }, {});
    expect(plan.steps[0]).toEqual({ method: 'POST', path: '/fields/books', body: { field: 'authors_id', type: 'integer', meta: { hidden: true }, schema: {} } });
    expect(plan.steps[1]!.body).toEqual({
      collection: 'books', field: 'authors_id', related_collection: 'authors', meta: { one_field: 'books', one_deselect_action: 'delete' }, schema: { on_delete: 'SET NULL' },
    });
  });

  it('m2m: a hidden junction with both keys, then two relations naming each other', () => {
    const plan = planRelation({ kind: 'm2m', collection: 'books', field: 'tags', related: 'tags' }, { books: 'integer', tags: 'string' });
    expect(plan.steps.map((step) => [step.method, step.path])).toEqual([['POST', '/collections'], ['POST', '/relations'], ['POST', '/relations']]);
    expect(plan.steps[0]!.body).toMatchObject({
      collection: 'books_tags',
      meta: { hidden: true },
      fields: [{ field: 'books_id', type: 'integer' }, { field: 'tags_id', type: 'string', schema: { max_length: 255 } }],
    });
    expect(plan.steps[1]!.body).toMatchObject({ collection: 'books_tags', field: 'books_id', related_collection: 'books', meta: { one_field: 'tags', junction_field: 'tags_id' } });
    expect(plan.steps[2]!.body).toMatchObject({ collection: 'books_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'books_id' } });
    expect(undoSteps(plan, 2)).toEqual([{ method: 'DELETE', path: '/collections/books_tags' }]);
    expect(undoSteps(plan, 0)).toEqual([]);
  });

  it('m2m to the same collection gets distinct key names', () => {
    const plan = planRelation({ kind: 'm2m', collection: 'pages', field: 'related', related: 'pages', junction: 'pages_related' }, {});
    expect(plan.steps[0]!.body).toMatchObject({ collection: 'pages_related', fields: [{ field: 'pages_id' }, { field: 'pages_related_id' }] });
  });

  it('m2a: a hidden junction with the parent key, item and collection, the item relation (no foreign key) before the parent one', () => {
    const plan = planRelation({ kind: 'm2a', collection: 'pages', field: 'blocks', related: '', allowed: ['block_text', 'block_image'] }, { pages: 'uuid' });
    expect(plan.steps[0]!.body).toMatchObject({
      collection: 'pages_blocks',
      meta: { hidden: true },
      fields: [{ field: 'pages_id', type: 'uuid' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }],
    });
    expect(plan.steps[1]!.body).toEqual({
      collection: 'pages_blocks',
      field: 'item',
      related_collection: null,
      meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_image'], junction_field: 'pages_id' },
      schema: null,
    });
    expect(plan.steps[2]!.body).toMatchObject({ collection: 'pages_blocks', field: 'pages_id', related_collection: 'pages', meta: { one_field: 'blocks', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } });
    expect(undoSteps(plan, 3)).toEqual([{ method: 'DELETE', path: '/collections/pages_blocks' }]);
  });

  it('reads the primary key type from a collection’s fields', () => {
    expect(primaryKeyType([{ type: 'string', schema: { is_primary_key: false } }, { type: 'uuid', schema: { is_primary_key: true } }])).toBe('uuid');
    expect(primaryKeyType([])).toBe('integer');
  });
});
