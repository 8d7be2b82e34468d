import { describe, expect, it } from 'vitest';
import { renderTemplate, templateHasValues } from '../../../admin/src/content/display-template.ts';
import { fieldAtPath, templateText, valueText } from '../../../admin/src/content/field-text.ts';
import { filterableFields } from '../../../admin/src/content/filter-builder/filterable-fields.ts';
import { toFilter } from '../../../admin/src/content/filter-builder/filter-model.ts';
import { schemaStateOf } from '../../../admin/src/content/schema/schema-context.tsx';
import type { CollectionInfo, FieldInfo, RelationInfo } from '../../../admin/src/content/schema/types.ts';

const collection = (name: string): CollectionInfo => ({ collection: name, meta: null, schema: { name } }) as CollectionInfo;
const field = (on: string, name: string, type: string, meta: Partial<NonNullable<FieldInfo['meta']>> = {}): FieldInfo =>
  ({ collection: on, field: name, type, meta: { special: null, hidden: false, readonly: false, options: null, translations: null, ...meta }, schema: name === 'id' ? { is_primary_key: true } : null }) as FieldInfo;
const relation = (on: string, name: string, related: string | null, meta: Partial<NonNullable<RelationInfo['meta']>> = {}): RelationInfo => ({
  collection: on,
  field: name,
  related_collection: related,
  meta: { one_field: null, junction_field: null, sort_field: null, one_collection_field: null, one_allowed_collections: null, one_deselect_action: 'nullify', ...meta },
});
const m2o = { special: ['m2o'] };
const status = { interface: 'select-dropdown', options: { choices: [{ text: 'To do', value: 'todo' }, { text: 'Done', value: 'done' }] } };

/** A newsroom: articles by an author from a country on a continent; tags (m2m), comments (o2m), blocks (m2a), translations. */
const schema = schemaStateOf(
  {
    collections: ['continents', 'countries', 'authors', 'articles', 'tags', 'articles_tags', 'comments', 'quotes', 'articles_blocks', 'languages', 'articles_translations'].map(collection),
    fields: [
      field('continents', 'id', 'integer'),
      field('continents', 'name', 'string'),
      field('countries', 'id', 'integer'),
      field('countries', 'name', 'string'),
      field('countries', 'continent', 'integer', m2o),
      field('authors', 'id', 'integer'),
      field('authors', 'name', 'string'),
      field('authors', 'country', 'integer', m2o),
      field('authors', 'articles', 'alias', { special: ['o2m'] }),
      field('articles', 'id', 'integer'),
      field('articles', 'title', 'string'),
      field('articles', 'status', 'string', status),
      field('articles', 'author', 'integer', m2o),
      field('articles', 'tags', 'alias', { special: ['m2m'] }),
      field('articles', 'comments', 'alias', { special: ['o2m'] }),
      field('articles', 'blocks', 'alias', { special: ['m2a'] }),
      field('articles', 'translations', 'alias', { special: ['translations'] }),
      field('tags', 'id', 'integer'),
      field('tags', 'name', 'string'),
      field('tags', 'articles', 'alias', { special: ['m2m'] }),
      field('articles_tags', 'id', 'integer'),
      field('articles_tags', 'articles_id', 'integer', { hidden: true }),
      field('articles_tags', 'tags_id', 'integer', { hidden: true }),
      field('comments', 'id', 'integer'),
      field('comments', 'approved', 'boolean'),
      field('comments', 'article', 'integer', m2o),
      field('quotes', 'id', 'integer'),
      field('quotes', 'text', 'string'),
      field('articles_blocks', 'id', 'integer'),
      field('articles_blocks', 'articles_id', 'integer', { hidden: true }),
      field('articles_blocks', 'item', 'string', { hidden: true }),
      field('articles_blocks', 'collection', 'string', { hidden: true }),
      field('languages', 'code', 'string', {}),
      field('languages', 'name', 'string'),
      field('articles_translations', 'id', 'integer'),
      field('articles_translations', 'articles_id', 'integer', { hidden: true }),
      field('articles_translations', 'languages_code', 'string', m2o),
      field('articles_translations', 'headline', 'string'),
    ],
    relations: [
      relation('countries', 'continent', 'continents'),
      relation('authors', 'country', 'countries'),
      relation('articles', 'author', 'authors', { one_field: 'articles' }),
      relation('articles_tags', 'articles_id', 'articles', { one_field: 'tags', junction_field: 'tags_id' }),
      relation('articles_tags', 'tags_id', 'tags', { one_field: 'articles', junction_field: 'articles_id' }),
      relation('comments', 'article', 'articles', { one_field: 'comments' }),
      relation('articles_blocks', 'item', null, { one_collection_field: 'collection', one_allowed_collections: ['quotes'], junction_field: 'articles_id' }),
      relation('articles_blocks', 'articles_id', 'articles', { one_field: 'blocks', junction_field: 'item' }),
      relation('articles_translations', 'languages_code', 'languages', { junction_field: 'articles_id' }),
      relation('articles_translations', 'articles_id', 'articles', { one_field: 'translations', junction_field: 'languages_code' }),
    ],
  },
  { loading: false, error: null, reload: async () => undefined },
);
const translate = (key: string, options: Record<string, unknown> = {}) =>
  ({ 'content.filter.related': `${options.relation} → ${options.field}`, 'content.filter.some': `${options.relation} (any) → ${options.field}`, 'content.filter.none': `${options.relation} (none) → ${options.field}` })[key] ?? key;

describe("the filter builder's paths", () => {
  const offered = filterableFields(schema, schema.fieldsOf('articles'), 'en-US', translate);
  const paths = offered.map((entry) => entry.field);

  it('goes through many-to-ones two relations deep, and no deeper', () => {
    expect(paths).toEqual(expect.arrayContaining(['title', 'author.name', 'author.country.name', 'author.country']));
    expect(offered.find((entry) => entry.field === 'author.country.name')?.label).toBe('Author → Country → Name');
    expect(paths.filter((path) => path.startsWith('author.country.continent.'))).toEqual([]);
  });

  it('goes through a many-to-many junction, a many-to-any collection and translation rows, quantified', () => {
    expect(paths).toEqual(expect.arrayContaining(['tags._some.tags_id.name', 'tags._none.tags_id.name', 'blocks._some.item:quotes.text', 'blocks._none.item:quotes.text', 'translations._some.headline', 'translations._some.languages_code.name', 'comments._some.approved']));
    expect(offered.find((entry) => entry.field === 'tags._some.tags_id.name')?.label).toBe('Tags (any) → Name');
    expect(offered.find((entry) => entry.field === 'blocks._some.item:quotes.text')?.label).toBe('Blocks (any) → Quotes → Text');
    expect(toFilter({ logic: 'and', rules: [{ field: 'blocks._some.item:quotes.text', operator: '_icontains', value: 'to be' }] })).toEqual({ blocks: { _some: { 'item:quotes': { text: { _icontains: 'to be' } } } } });
  });

  it('never goes straight back through the relation it came by, nor offers hidden junction keys', () => {
    expect(paths.filter((path) => /^author\.articles|^comments\._(some|none)\.article\b|^tags\._(some|none)\.tags_id\.articles/.test(path))).toEqual([]);
    expect(paths.filter((path) => path.includes('articles_id'))).toEqual([]);
  });

  it('offers nothing through a collection the user may not read (absent from the schema)', () => {
    const narrow = schemaStateOf({ relations: schema.relations, collections: schema.collections.filter((entry) => entry.collection !== 'countries'), fields: schema.fields.filter((entry) => entry.collection !== 'countries') }, { loading: false, error: null, reload: async () => undefined });
    const narrowPaths = filterableFields(narrow, narrow.fieldsOf('articles'), 'en-US', translate).map((entry) => entry.field);
    expect(narrowPaths).toContain('author.name');
    expect(narrowPaths.filter((path) => path.startsWith('author.country.'))).toEqual([]);
  });
});

describe('values as text', () => {
  it("shows a dropdown's choice text, in templates too, through a many-to-one", () => {
    const statusField = schema.fieldsOf('articles').find((entry) => entry.field === 'status');
    expect(valueText(statusField, 'todo')).toBe('To do');
    expect(valueText(statusField, 'other')).toBe('other');
    expect(valueText(undefined, 3)).toBe('3');
    expect(fieldAtPath(schema, 'articles', 'author.country.name')?.collection).toBe('countries');
    expect(renderTemplate('{{title}} · {{status}}', { id: 1, title: 'Bees', status: 'done' }, 'id', templateText(schema, 'articles'))).toBe('Bees · Done');
    expect(templateHasValues('{{status}} · {{author.name}}', { status: null, author: { name: 'Ada' } })).toBe(true);
    expect(templateHasValues('{{status}} · {{author.name}}', { status: '', author: null })).toBe(false);
  });
});
