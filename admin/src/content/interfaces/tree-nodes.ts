/**
 * The pure half of the tree view (`list-o2m-tree-view`): the nested items under one item of a recursive
 * one-to-many, moves by drag and drop, and the nested o2m value the API applies in one save.
 */

type Item = Record<string, unknown>;
type Key = string | number;

/** One item of the tree with its children. */
export interface TreeNode {
  key: Key;
  item: Item;
  children: TreeNode[];
  /** Whether it had children when read: its list is then sent even when emptied. */
  hadChildren: boolean;
  /** An item made in the tree and not saved yet: its key is the tree's own, and its fields are sent to create it. */
  isNew?: boolean;
}

/** The shape of the relation: the key, the field pointing at the parent, and the o2m list field. */
export interface TreeShape {
  primaryKey: string;
  parentField: string;
  listField: string;
  sortField: string | null;
}

/** The items under `root` (null: none, for an item not saved yet), nested; each item once, so a loop in the data ends. */
export function buildTree(items: readonly Item[], root: Key | null, shape: TreeShape): TreeNode[] {
  const byParent = new Map<string, Item[]>();
  for (const item of items) {
    const parent = item[shape.parentField];
    const parentKey = parent && typeof parent === 'object' ? (parent as Item)[shape.primaryKey] : parent;
    if (parentKey === null || parentKey === undefined) continue;
    const list = byParent.get(String(parentKey)) ?? [];
    list.push(item);
    byParent.set(String(parentKey), list);
  }
  const seen = new Set<string>(root === null ? [] : [String(root)]);
  const sort = (list: Item[]) => (shape.sortField ? [...list].sort((a, b) => Number(a[shape.sortField!] ?? 0) - Number(b[shape.sortField!] ?? 0)) : list);
  const level = (parent: Key): TreeNode[] =>
    sort(byParent.get(String(parent)) ?? []).flatMap((item) => {
      const key = item[shape.primaryKey] as Key;
      if (seen.has(String(key))) return [];
      seen.add(String(key));
      const children = level(key);
      return [{ key, item, children, hadChildren: children.length > 0 }];
    });
  return root === null ? [] : level(root);
}

/** Every key in the nodes, at any depth. */
export function treeKeys(nodes: readonly TreeNode[]): Key[] {
  return nodes.flatMap((node) => [node.key, ...treeKeys(node.children)]);
}

/** The nodes without the one of `key` (at any depth), and that node. */
function detach(nodes: readonly TreeNode[], key: Key): [TreeNode[], TreeNode | null] {
  let found: TreeNode | null = null;
  const rest = nodes.flatMap((node) => {
    if (String(node.key) === String(key)) {
      found = node;
      return [];
    }
    const [children, inner] = detach(node.children, key);
    if (inner) found = inner;
    return [inner ? { ...node, children } : node];
  });
  return [rest, found];
}

/**
 * Moves `dragged` into `target` (as its last child) or beside it (`before` or `after`). A node never
 * moves into its own branch; such a move leaves the tree as it was.
 */
export function moveNode(nodes: readonly TreeNode[], dragged: Key, target: Key, where: 'inside' | 'before' | 'after'): TreeNode[] {
  if (String(dragged) === String(target)) return [...nodes];
  const [rest, node] = detach(nodes, dragged);
  if (!node || treeKeys(node.children).some((key) => String(key) === String(target))) return [...nodes];
  const place = (list: TreeNode[]): [TreeNode[], boolean] => {
    const index = list.findIndex((entry) => String(entry.key) === String(target));
    if (index >= 0) {
      if (where === 'inside') return [list.map((entry, at) => (at === index ? { ...entry, children: [...entry.children, node] } : entry)), true];
      const next = [...list];
      next.splice(where === 'before' ? index : index + 1, 0, node);
      return [next, true];
    }
    let placed = false;
    const next = list.map((entry) => {
      if (placed) return entry;
      const [children, done] = place(entry.children);
      placed = done;
      return done ? { ...entry, children } : entry;
    });
    return [next, placed];
  };
  const [moved, placed] = place(rest);
  return placed ? moved : [...nodes];
}

/**
 * The value the form sends for the list field: each item by its key (a new one by its fields) with its own
 * list (for items that have or had children) and its position (when the relation has a sort field). The API applies nested o2m
 * lists (each the complete set of that item's children), so every move is saved with the item.
 */
export function treeValue(nodes: readonly TreeNode[], shape: TreeShape): Item[] {
  return nodes.map((node, index) => {
    const value: Item = node.isNew ? { ...node.item } : { [shape.primaryKey]: node.key };
    if (shape.sortField) value[shape.sortField] = index + 1;
    if (node.children.length > 0 || node.hadChildren) value[shape.listField] = treeValue(node.children, shape);
    return value;
  });
}
