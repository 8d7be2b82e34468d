import { describe, expect, it } from 'vitest';
import { orderTranslations } from '../../../admin/src/content/displays/translation-order.ts';
import { toObject, toRows } from '../../../admin/src/content/interfaces/key-value-rows.ts';
import { buildTree, moveNode, treeValue, type TreeShape } from '../../../admin/src/content/interfaces/tree-nodes.ts';

const shape: TreeShape = { primaryKey: 'id', parentField: 'parent', listField: 'children', sortField: null };
// 1 ─ 2 ─ 4
//   └ 3
const items = [
  { id: 1, parent: null, name: 'root' },
  { id: 2, parent: 1, name: 'fruit' },
  { id: 3, parent: 1, name: 'sweets' },
  { id: 4, parent: 2, name: 'apple' },
  { id: 5, parent: null, name: 'loose' },
];
const keysOf = (nodes: ReturnType<typeof buildTree>): unknown[] => nodes.map((node) => (node.children.length ? [node.key, keysOf(node.children)] : node.key));

describe('the tree view', () => {
  it('nests every level under the item, in sort order when the relation has a sort field, and survives a loop in the data', () => {
    expect(keysOf(buildTree(items, 1, shape))).toEqual([[2, [4]], 3]);
    expect(buildTree(items, null, shape)).toEqual([]);
    const sorted = buildTree([...items.slice(0, 3).map((item, index) => ({ ...item, sort: 3 - index }))], 1, { ...shape, sortField: 'sort' });
    expect(sorted.map((node) => node.key)).toEqual([3, 2]);
    const loop = [
      { id: 1, parent: 2 },
      { id: 2, parent: 1 },
    ];
    expect(keysOf(buildTree(loop, 1, shape))).toEqual([2]);
  });

  it('moves an item into another branch or beside an item, never into its own branch', () => {
    const tree = buildTree(items, 1, shape);
    expect(keysOf(moveNode(tree, 3, 2, 'inside'))).toEqual([[2, [4, 3]]]);
    expect(keysOf(moveNode(tree, 4, 3, 'after'))).toEqual([2, 3, 4]);
    expect(keysOf(moveNode(tree, 3, 2, 'before'))).toEqual([3, [2, [4]]]);
    expect(keysOf(moveNode(tree, 2, 4, 'inside'))).toEqual([[2, [4]], 3]);
  });

  it('sends each item by its key with the lists that have or had children, and positions when sorted', () => {
    const tree = buildTree(items, 1, shape);
    expect(treeValue(moveNode(tree, 4, 3, 'inside'), shape)).toEqual([{ id: 2, children: [] }, { id: 3, children: [{ id: 4 }] }]);
    expect(treeValue(tree, { ...shape, sortField: 'sort' })).toEqual([{ id: 2, sort: 1, children: [{ id: 4, sort: 1 }] }, { id: 3, sort: 2 }]);
  });
});

describe('key-value rows', () => {
  it('reads an object as rows and writes rows back, untouched values keeping their type', () => {
    const stored = { room: 'double', floor: 3 };
    const rows = toRows(stored);
    expect(rows).toEqual([
      { key: 'room', value: 'double' },
      { key: 'floor', value: '3' },
    ]);
    expect(toObject(rows, stored)).toEqual(stored);
    expect(toObject([...rows.slice(0, 1), { key: 'floor', value: '4' }], stored)).toEqual({ room: 'double', floor: '4' });
  });

  it('leaves out rows without a key and keeps the last of a repeated key', () => {
    expect(toObject([{ key: ' a ', value: '1' }, { key: '', value: 'lost' }, { key: 'a', value: '2' }], null)).toEqual({ a: '2' });
    expect(toRows(null)).toEqual([]);
    expect(toRows(['not', 'an', 'object'])).toEqual([]);
  });
});

describe('translations order', () => {
  const rows = [{ lang: 'en-US' }, { lang: 'pt-PT' }, { lang: 'pt-BR' }, { lang: 'de-DE' }];
  const language = (row: Record<string, unknown>) => row.lang as string;
  it('puts the user language first, then the default one, then the rest as stored', () => {
    expect(orderTranslations(rows, language, ['pt-BR', 'de-DE']).map(language)).toEqual(['pt-BR', 'de-DE', 'pt-PT', 'en-US']);
    expect(orderTranslations(rows, language, [undefined, 'de-DE']).map(language)).toEqual(['de-DE', 'en-US', 'pt-PT', 'pt-BR']);
  });
  it('matches another region of the same language when the exact one is missing', () => {
    expect(orderTranslations([{ lang: 'en-US' }, { lang: 'pt-PT' }], language, ['pt-BR']).map(language)).toEqual(['pt-PT', 'en-US']);
  });
});
