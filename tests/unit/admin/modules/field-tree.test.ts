import { describe, expect, it } from 'vitest';
import { fieldTree, siblingsOf } from '../../../../admin/src/modules/data-model/field-tree.ts';

const field = (name: string, sort: number | null, group: string | null = null) => ({ field: name, meta: { sort, group } });
const rowsOf = (fields: ReturnType<typeof field>[]) => fieldTree(fields).map((row) => `${row.field.field}:${row.depth}:${row.parent ?? '-'}`);

describe('the data model field tree', () => {
  it('nests each group’s fields under it, every level ordered by meta.sort', () => {
    const fields = [field('footer', 4), field('remark', 1, 'notes'), field('more', 3), field('title', 1), field('notes', 2, 'more'), field('links', 1, 'more'), field('website', null, 'links'), field('details', 2), field('summary', 2, 'details'), field('subtitle', 1, 'details')];
    expect(rowsOf(fields)).toEqual([
      'title:0:-',
      'details:0:-',
      'subtitle:1:details',
      'summary:1:details',
      'more:0:-',
      'links:1:more',
      'website:2:links',
      'notes:1:more',
      'remark:2:notes',
      'footer:0:-',
    ]);
  });

  it('keeps fields whose group is missing, themselves, or a loop at the top level so none is hidden', () => {
    expect(rowsOf([field('a', 1, 'ghost'), field('b', 2, 'b'), field('c', 3, 'd'), field('d', 4, 'c')])).toEqual(['a:0:-', 'b:0:-', 'c:0:-', 'd:0:-']);
  });

  it('moves a row only among the fields of its own group', () => {
    const rows = fieldTree([field('title', 1), field('details', 2), field('summary', 2, 'details'), field('subtitle', 1, 'details'), field('footer', 3)]);
    expect(siblingsOf(rows, rows.find((row) => row.field.field === 'summary')!).map((item) => item.field)).toEqual(['subtitle', 'summary']);
    expect(siblingsOf(rows, rows[0]!).map((item) => item.field)).toEqual(['title', 'details', 'footer']);
  });
});
