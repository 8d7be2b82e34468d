import { describe, expect, it } from 'vitest';
import { fromFilter, fromPreset, pickDefault, toPresetFields, type PresetRow } from '../../../admin/src/content/items/list-preset.ts';
import { toFilter } from '../../../admin/src/content/filter-builder/filter-model.ts';

const row = (values: Partial<PresetRow>): PresetRow => ({ id: 1, bookmark: null, user: null, role: null, collection: 'articles', search: null, layout: 'tabular', layout_query: null, filter: null, ...values });

describe('list presets', () => {
  it('stores a view in Directus\'s shape and reads it back', () => {
    const view = { fields: ['title', 'status'], sort: [{ field: 'title', order: 'desc' as const }], pageSize: 50, search: 'sale', filter: { logic: 'or' as const, rules: [{ field: 'status', operator: '_eq', value: 'draft' }, { field: 'author.name', operator: '_in', value: 'Ada, Grace' }] } };
    const stored = toPresetFields(view);
    expect(stored).toEqual({
      layout: 'tabular',
      layout_query: { tabular: { fields: ['title', 'status'], sort: ['-title'], limit: 50 } },
      search: 'sale',
      filter: { _or: [{ status: { _eq: 'draft' } }, { author: { name: { _in: ['Ada', 'Grace'] } } }] },
    });
    const back = fromPreset(row(stored), ['title', 'status', 'author']);
    expect(back).toEqual({ ...view, filter: { logic: 'or', rules: [{ field: 'status', operator: '_eq', value: 'draft' }, { field: 'author.name', operator: '_in', value: 'Ada, Grace' }] } });
    expect(toFilter(back.filter!)).toEqual(stored.filter);
  });

  it('keeps the layout shown and each layout\'s settings (tessera_presets.layout, layout_options)', () => {
    const view = { fields: ['title'], sort: [], pageSize: 25, search: '', filter: { logic: 'and' as const, rules: [] }, layout: 'board', layoutOptions: { board: { titleField: 'title' } } };
    const stored = toPresetFields(view);
    expect(stored).toMatchObject({ layout: 'board', layout_options: { board: { titleField: 'title' } }, layout_query: { tabular: { fields: ['title'] } } });
    expect(fromPreset(row(stored), ['title'])).toMatchObject({ layout: 'board', layoutOptions: { board: { titleField: 'title' } } });
    // The table is the default: a view on it stores `tabular` and reads back without a layout.
    expect(fromPreset(row(toPresetFields({ ...view, layout: undefined, layoutOptions: undefined })), ['title'])).not.toHaveProperty('layout');
  });

  it('keys the shown layout\'s sort and paging by its id, as Directus does, and reads them back from there', () => {
    const view = { fields: ['title'], sort: [{ field: 'title', order: 'asc' as const }], pageSize: 50, page: 3, search: '', filter: { logic: 'and' as const, rules: [] }, layout: 'cards', layoutOptions: { cards: { title: '{{title}}', size: 3 }, tabular: { widths: { title: 240 }, spacing: 'compact' } } };
    const stored = toPresetFields(view);
    expect(stored.layout_query).toEqual({ tabular: { fields: ['title'], sort: ['title'], limit: 50, page: 3 }, cards: { sort: ['title'], limit: 50, page: 3 } });
    expect(stored.layout_options).toEqual(view.layoutOptions);
    // A preset made in Directus: the cards' own query wins over the table's.
    const directus = row({ layout: 'cards', layout_query: { tabular: { fields: ['title'], sort: ['-title'], limit: 25 }, cards: { sort: ['title'], limit: 100, page: 2 } } });
    expect(fromPreset(directus, ['title'])).toEqual({ fields: ['title'], sort: [{ field: 'title', order: 'asc' }], pageSize: 100, page: 2, layout: 'cards' });
  });

  it('drops fields that are gone, unknown page sizes, and filters the builder cannot show', () => {
    const back = fromPreset(row({ layout_query: { tabular: { fields: ['gone', 'title'], sort: ['gone'], limit: 7 } }, filter: { _and: [{ _or: [{ a: { _eq: 1 } }] }] } as never }), ['title']);
    expect(back).toEqual({ fields: ['title'], sort: [] });
    expect(fromFilter({ title: { _null: true } } as never)).toEqual({ logic: 'and', rules: [{ field: 'title', operator: '_null', value: '' }] });
  });

  it('prefers the user\'s own default, then the role\'s, then the global one; bookmarks are not defaults', () => {
    const global = row({ id: 1 });
    const roles = row({ id: 2, role: 'r1' });
    const own = row({ id: 3, user: 'u1' });
    const bookmark = row({ id: 4, user: 'u1', bookmark: 'Drafts' });
    expect(pickDefault([global, roles, own, bookmark], 'u1', 'r1')?.id).toBe(3);
    expect(pickDefault([global, roles, bookmark], 'u1', 'r1')?.id).toBe(2);
    expect(pickDefault([global, roles], 'u2', 'r2')?.id).toBe(1);
    expect(pickDefault([bookmark], 'u1', 'r1')).toBeNull();
  });
});
