import { orderFields } from '../../../../admin/src/content/schema/field-order.ts';
import { describe, expect, it } from 'vitest';
import {
  COLLECTION_NAME_PATTERN,
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  INTERFACES_BY_TYPE,
  defaultInterface,
  interfaceLabel,
  interfacesFor,
  interfaceAfterTypeChange,
  moveItem,
  nextSort,
  reorderWrites,
  sortFields,
  toFieldFormValues,
  toGroupPayload,
  toFieldPayload,
} from '../../../../admin/src/modules/data-model/field-types.ts';
import { FIELD_TYPES as SERVER_FIELD_TYPES } from '../../../../server/schema/types.ts';
import { field as defineField } from '../../../../server/schema/system/define.ts';

describe('field type picker', () => {
  it('offers every storage type the server has except alias (relations make those)', () => {
    expect([...FIELD_TYPES].sort()).toEqual(SERVER_FIELD_TYPES.filter((type) => type !== 'alias').sort());
  });

  it("defaults each type to the interface the server gives it", () => {
    for (const type of FIELD_TYPES) expect(defaultInterface(type), type).toBe(defineField('x', type, {}).meta.interface);
  });

  it('pairs types with interfaces: text gets the editors, booleans a toggle, csv tags', () => {
    expect(INTERFACES_BY_TYPE.text).toContain('input-rich-text-md');
    expect(INTERFACES_BY_TYPE.boolean).toEqual(['boolean']);
    expect(INTERFACES_BY_TYPE.csv[0]).toBe('tags');
    expect(INTERFACES_BY_TYPE.string).toContain('select-dropdown');
  });

  it('keeps the interface across a type change when the new type offers it', () => {
    expect(interfaceAfterTypeChange('text', 'input')).toBe('input');
    expect(interfaceAfterTypeChange('boolean', 'input')).toBe('boolean');
    expect(interfaceAfterTypeChange('integer', null)).toBe('input');
  });

  it('checks names as the API does', () => {
    expect(FIELD_NAME_PATTERN.test('title_2')).toBe(true);
    expect(FIELD_NAME_PATTERN.test('2title')).toBe(false);
    expect(FIELD_NAME_PATTERN.test('a'.repeat(64))).toBe(false);
    expect(COLLECTION_NAME_PATTERN.test('articles')).toBe(true);
    expect(COLLECTION_NAME_PATTERN.test('tessera_things')).toBe(false);
    expect(COLLECTION_NAME_PATTERN.test('pg_x')).toBe(false);
  });
});

describe('field payloads', () => {
  it('builds a POST /fields body with column settings and metadata', () => {
    const payload = toFieldPayload({
      field: 'status', type: 'string', interface: 'select-dropdown', required: true, width: 'half', note: ' Workflow ', max_length: 20,
      default_value: 'draft', unique: false, nullable: false,
      choices: [{ text: 'Draft', value: 'draft' }, { text: '', value: 'published' }, { text: 'Empty', value: '' }],
    });
    expect(payload).toEqual({
      field: 'status',
      type: 'string',
      schema: { default_value: 'draft', is_nullable: false, is_unique: false, max_length: 20 },
      meta: {
        interface: 'select-dropdown', options: { choices: [{ text: 'Draft', value: 'draft' }, { text: 'published', value: 'published' }] },
        required: true, readonly: false, hidden: false, width: 'half', note: 'Workflow', translations: null, group: null,
        validation: null, validation_message: null,
      },
    });
  });

  it('sends the validation rule parsed from its JSON text, and its message trimmed; blank clears both', () => {
    const payload = toFieldPayload({ field: 'slug', type: 'string', interface: 'input', validation: '{ "slug": { "_regex": "^[a-z-]+$" } }', validation_message: ' Lowercase only. ' });
    expect(payload.meta).toMatchObject({ validation: { slug: { _regex: '^[a-z-]+$' } }, validation_message: 'Lowercase only.' });
    expect(toFieldPayload({ field: 'slug', type: 'string', interface: 'input', validation: '  ', validation_message: '' }).meta).toMatchObject({ validation: null, validation_message: null });
  });

  it('types defaults, adds precision for decimals and leaves the name out of a PATCH', () => {
    expect(toFieldPayload({ field: 'n', type: 'integer', interface: 'input', default_value: '5' }).schema.default_value).toBe(5);
    expect(toFieldPayload({ field: 'b', type: 'boolean', interface: 'boolean', default_value: 'true' }).schema.default_value).toBe(true);
    expect(toFieldPayload({ field: 'd', type: 'date', interface: 'datetime', default_value: '' }).schema.default_value).toBeNull();
    const decimal = toFieldPayload({ field: 'price', type: 'decimal', interface: 'input', numeric_precision: 8, numeric_scale: 2 }, { collection: 'c', field: 'price', type: 'decimal', meta: null, schema: null });
    expect(decimal.field).toBeUndefined();
    expect(decimal.schema).toMatchObject({ numeric_precision: 8, numeric_scale: 2 });
  });

  it('asks for cast-csv when a field becomes a list (csv), and leaves the specials of other fields alone', () => {
    expect(toFieldPayload({ field: 'tags', type: 'csv', interface: 'tags' }).meta.special).toEqual(['cast-csv']);
    const note = { collection: 'c', field: 'note', type: 'text', meta: { special: ['conceal'] }, schema: {} };
    expect(toFieldPayload({ ...toFieldFormValues(note), type: 'csv' }, note).meta.special).toEqual(['conceal', 'cast-csv']);
    const tags = { collection: 'c', field: 'tags', type: 'csv', meta: { special: ['cast-csv'] }, schema: {} };
    expect(toFieldPayload(toFieldFormValues(tags), tags).meta.special).toBeUndefined();
    expect(toFieldPayload({ field: 'title', type: 'string', interface: 'input' }).meta.special).toBeUndefined();
  });

  it('round-trips a stored field through the form', () => {
    const record = {
      collection: 'articles', field: 'status', type: 'string',
      meta: { interface: 'select-dropdown', options: { choices: [{ text: 'Draft', value: 'draft' }] }, required: true, readonly: false, hidden: false, width: 'half' as const, note: 'n', translations: [{ language: 'pt-BR', translation: 'Situação' }] },
      schema: { default_value: 'draft', max_length: 20, is_nullable: false, is_unique: false },
    };
    const values = toFieldFormValues(record);
    expect(values).toMatchObject({ field: 'status', type: 'string', interface: 'select-dropdown', choices: [{ text: 'Draft', value: 'draft' }], max_length: 20, nullable: false });
    expect(toFieldPayload(values, record).meta).toMatchObject({ options: record.meta.options, translations: record.meta.translations, note: 'n' });
  });
});

describe('field order', () => {
  const fields = [
    { field: 'body', meta: { sort: 2 } },
    { field: 'id', meta: { sort: null } },
    { field: 'title', meta: { sort: 1 } },
  ];

  it('sorts by meta.sort, unsorted fields last', () => {
    expect(sortFields(fields).map((field) => field.field)).toEqual(['title', 'body', 'id']);
  });

  it('keeps unsorted fields in the order the API lists them (creation order), not by name, like the form', () => {
    const unsorted = [{ field: 'title', meta: { sort: null } }, { field: 'body', meta: null }, { field: 'author', meta: { sort: null } }, { field: 'id', meta: { sort: 1 } }];
    expect(sortFields(unsorted).map((field) => field.field)).toEqual(['id', 'title', 'body', 'author']);
    expect(orderFields(unsorted)).toEqual(sortFields(unsorted));
  });

  it('writes sort only for fields whose position changed', () => {
    const moved = moveItem(sortFields(fields), 2, 0);
    expect(moved.map((field) => field.field)).toEqual(['id', 'title', 'body']);
    expect(reorderWrites(moved)).toEqual([{ field: 'id', sort: 1 }, { field: 'title', sort: 2 }, { field: 'body', sort: 3 }]);
    expect(reorderWrites([{ field: 'a', meta: { sort: 1 } }, { field: 'b', meta: { sort: 2 } }])).toEqual([]);
  });

  it('places a new field last once every field has a place', () => {
    expect(nextSort([{ field: 'a', meta: { sort: 1 } }, { field: 'b', meta: { sort: 4 } }])).toBe(5);
    expect(nextSort(fields)).toBeNull();
    expect(nextSort([])).toBeNull();
  });
});

describe('group fields', () => {
  it('moves a field into a group and back out through meta.group', () => {
    const record = { collection: 'posts', field: 'slug', type: 'string', meta: { interface: 'input', group: 'seo' }, schema: {} };
    const values = toFieldFormValues(record);
    expect(values.group).toBe('seo');
    expect(toFieldPayload(values, record).meta.group).toBe('seo');
    expect(toFieldPayload({ ...values, group: undefined }, record).meta.group).toBeNull();
  });

  it('creates a group as an alias with the group special', () => {
    expect(toGroupPayload({ field: 'seo', interface: 'group-accordion' }, 4)).toEqual({
      field: 'seo',
      type: 'alias',
      schema: null,
      meta: { special: ['alias', 'no-data', 'group'], interface: 'group-accordion', options: null, width: 'full', sort: 4 },
    });
  });
});

describe('interfaces of admin extensions in the picker', () => {
  it('are offered for the types they fit, after the built-in ones, under their own name, until they go', async () => {
    const { interfaces } = await import('../../../../admin/src/extensions/kinds.ts');
    const remove = interfaces.register({ id: 'rating', name: 'Rating', types: ['integer'], component: () => null });
    const anyType = interfaces.register({ id: 'anything', name: 'Anything', component: () => null });
    try {
      expect(interfacesFor('integer')).toEqual([...INTERFACES_BY_TYPE.integer, 'rating', 'anything']);
      expect(interfacesFor('string')).toEqual([...INTERFACES_BY_TYPE.string, 'anything']);
      expect(interfaceLabel('rating', (key) => `t:${key}`)).toBe('Rating');
      expect(interfaceLabel('input', (key) => `t:${key}`)).toBe('t:dataModel.interfaces.input');
    } finally {
      remove();
      anyType();
    }
    expect(interfacesFor('integer')).toEqual(INTERFACES_BY_TYPE.integer);
  });
});
