import { describe, expect, it } from 'vitest';
import { fieldTree, isGroupField, type FieldNode, type Groupable } from '../../../admin/src/content/schema/field-groups.ts';

const field = (name: string, meta: Groupable['meta'] = {}): Groupable => ({ field: name, meta });
const group = (name: string, meta: Groupable['meta'] = {}): Groupable => field(name, { special: ['alias', 'no-data', 'group'], ...meta });
const shape = (nodes: FieldNode<Groupable>[]): unknown => nodes.map((node) => (node.children.length > 0 || isGroupField(node.field) ? { [node.field.field]: shape(node.children) } : node.field.field));

describe('field groups', () => {
  it('puts fields in their group, each level ordered by meta.sort', () => {
    const tree = fieldTree([
      field('title', { sort: 1 }),
      group('seo', { sort: 2 }),
      field('slug', { sort: 2, group: 'seo' }),
      field('meta_title', { sort: 1, group: 'seo' }),
      group('advanced', { sort: 3, group: 'seo' }),
      field('canonical', { group: 'advanced' }),
      field('body', { sort: 3 }),
    ]);
    expect(shape(tree)).toEqual(['title', { seo: ['meta_title', 'slug', { advanced: ['canonical'] }] }, 'body']);
  });

  it('keeps a field naming a missing or non-group field, or in a cycle, at the top level', () => {
    const tree = fieldTree([field('a', { group: 'nowhere' }), field('b', { group: 'a' }), group('x', { group: 'y', sort: 5 }), group('y', { group: 'x', sort: 6 })]);
    expect(shape(tree)).toEqual([{ x: [] }, { y: [] }, 'a', 'b']);
  });
});
