import { describe, expect, it } from 'vitest';
import { matchingRule, mimeExtension, relativeTime } from '../../../admin/src/content/displays/relative-time.ts';
import { withOptionDefaults, DISPLAY_OPTIONS } from '../../../admin/src/content/interfaces/interface-options.ts';
import { anyPayload, anyReadPaths, anyRowLabel, type AnyTarget } from '../../../admin/src/content/interfaces/many-to-any-rows.ts';
import { asFieldInfo, repeaterFields } from '../../../admin/src/content/interfaces/repeater-fields.ts';
import { tidyTags } from '../../../admin/src/content/interfaces/tags.ts';
import { optionsFor, toFieldFormValues, toFieldPayload } from '../../../admin/src/modules/data-model/field-types.ts';

const blocks: AnyTarget = {
  collection: 'pages_blocks',
  primaryKey: 'id',
  template: '',
  backField: 'pages_id',
  any: {
    itemField: 'item',
    collectionField: 'collection',
    allowed: [
      { collection: 'block_text', primaryKey: 'id', template: '{{body}}' },
      { collection: 'people', primaryKey: 'uuid', template: 'By {{name}}' },
    ],
  },
};

describe('many-to-any values', () => {
  it('reads each row’s key, collection and its item’s label fields per allowed collection', () => {
    const labels = (collection: string) => (collection === 'block_text' ? ['id', 'body'] : ['uuid', 'name']);
    expect(anyReadPaths('blocks', blocks, labels)).toEqual(['blocks.id', 'blocks.collection', 'blocks.item:block_text.id', 'blocks.item:block_text.body', 'blocks.item:people.uuid', 'blocks.item:people.name']);
  });

  it('labels each row by its own collection’s template, its key when the item was not read', () => {
    expect(anyRowLabel({ collection: 'block_text', item: { id: 1, body: 'Hello' } }, blocks)).toBe('Hello');
    expect(anyRowLabel({ collection: 'people', item: { uuid: 'u1', name: 'Ada' } }, blocks)).toBe('By Ada');
    expect(anyRowLabel({ collection: 'people', item: 'u2' }, blocks)).toBe('u2');
  });

  it('sends kept rows as junction keys, picked items as keys, new items as objects', () => {
    expect(
      anyPayload(
        [
          { id: 7, collection: 'block_text', item: { id: 1, body: 'Kept' } },
          { collection: 'people', item: { uuid: 'u1', name: 'Ada' } },
          { collection: 'block_text', item: { body: 'New' } },
        ],
        blocks,
      ),
    ).toEqual([7, { collection: 'people', item: 'u1' }, { collection: 'block_text', item: { body: 'New' } }]);
  });
});

describe('interface and display options in the field drawer', () => {
  it('keeps options the form does not know (a Directus schema’s), drops blanks, and fills defaults on read', () => {
    const values = toFieldFormValues({ collection: 'pages', field: 'blocks', type: 'alias', meta: { interface: 'list-m2a', options: { enableCreate: false, directusOnly: 3 } }, schema: null });
    expect(values.options).toEqual({ enableSelect: true, enableCreate: false, allowDuplicates: false, directusOnly: 3 });
    // Defaults are what the interface assumes anyway: only the rest is stored.
    expect(optionsFor({ ...values, options: { ...values.options, empty: '' } })).toEqual({ enableCreate: false, directusOnly: 3 });
  });

  it('keeps nested choices of a checkbox tree as an option, flat choices of a dropdown from their list', () => {
    const tree = [{ text: 'Fruit', value: 'fruit', children: [{ text: 'Apple', value: 'apple' }] }];
    const values = toFieldFormValues({ collection: 'c', field: 'f', type: 'json', meta: { interface: 'select-multiple-checkbox-tree', options: { choices: tree } }, schema: null });
    expect(optionsFor(values)).toEqual({ choices: tree });
    expect(optionsFor({ ...values, options: { ...values.options, valueCombining: 'leaf' } })).toEqual({ choices: tree, valueCombining: 'leaf' });
    expect(optionsFor({ field: 'f', type: 'string', interface: 'select-radio', options: { choices: ['stale'] }, choices: [{ text: '', value: 'a' }] })).toEqual({ choices: [{ text: 'a', value: 'a' }] });
  });

  it('sends the display and its options; no display clears them; a form without a display leaves them alone', () => {
    expect(toFieldPayload({ field: 'd', type: 'dateTime', interface: 'datetime', display: 'datetime', display_options: withOptionDefaults('datetime', { relative: true }, DISPLAY_OPTIONS) }).meta).toEqual(expect.objectContaining({ display: 'datetime', display_options: { relative: true } }));
    expect(toFieldPayload({ field: 'd', type: 'dateTime', interface: 'datetime', display: null, display_options: { relative: true } }).meta).toMatchObject({ display: null, display_options: null });
    expect(toFieldPayload({ field: 'd', type: 'dateTime', interface: 'datetime' }).meta).not.toHaveProperty('display');
  });
});

describe('repeater fields', () => {
  it('reads the rows’ field definitions and edits each with the interface of its type', () => {
    const fields = repeaterFields({ fields: [{ field: 'title', type: 'string' }, { field: '', type: 'string' }, 'junk', { field: 'done', type: 'boolean', meta: { width: 'half' } }] });
    expect(fields.map((entry) => entry.field)).toEqual(['title', 'done']);
    expect(asFieldInfo('recipes', fields[1]!).meta).toMatchObject({ interface: 'boolean', width: 'half' });
    expect(asFieldInfo('recipes', fields[0]!).meta).toMatchObject({ interface: 'input' });
  });
});

describe('display helpers', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('says how long ago in the user’s language', () => {
    expect(relativeTime('2026-11-26T09:00:00Z', 'en-US', now)).toBe('3 hours ago');
    expect(relativeTime('2026-11-26T09:00:00Z', 'pt-BR', now)).toBe('há 3 horas');
    expect(relativeTime('2026-11-28T12:00:00Z', 'en-US', now)).toBe('in 2 days');
  });

  it('names file types by extension', () => {
    expect(mimeExtension('image/jpeg')).toBe('JPG');
    expect(mimeExtension('application/pdf')).toBe('PDF');
    expect(mimeExtension('image/svg+xml')).toBe('SVG');
  });

  it('picks the first conditional format the value matches', () => {
    const rules = [{ operator: 'gte', value: 100, color: 'red' }, { operator: 'eq', value: 'draft', text: 'Draft!' }];
    expect(matchingRule(150, rules)?.color).toBe('red');
    expect(matchingRule('draft', rules)?.text).toBe('Draft!');
    expect(matchingRule(5, rules)).toBeUndefined();
  });
});

describe('tags', () => {
  it('shapes tags as the options say: spaces replaced, case changed, duplicates dropped, sorted', () => {
    expect(tidyTags(['New York', 'boston', ' new   york '], { whitespace: '-', capitalization: 'lowercase', alphabetize: true })).toEqual(['boston', 'new-york']);
    expect(tidyTags(['b', 'a', ''], {})).toEqual(['b', 'a']);
    expect(tidyTags(['x y'], { capitalization: 'uppercase' })).toEqual(['X Y']);
  });
});
