import { DeleteOutlined } from '@ant-design/icons';
import { useList, useTranslate } from '@refinedev/core';
import { Alert, Button, Flex, Tag, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { renderTemplate } from '../display-template.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { useItemKey } from './item-key.ts';
import { labelFields, relatedTarget } from './related.ts';
import { CreateRelatedButton, RelatedItemDrawer } from './related-item-drawer.tsx';
import { RelatedPicker } from './related-picker.tsx';
import { buildTree, moveNode, treeKeys, treeValue, type TreeNode, type TreeShape } from './tree-nodes.ts';
import type { InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;
/** One node as antd's Tree takes it. */
interface TreeData {
  key: string;
  title: ReactNode;
  children: TreeData[];
}

/** The keys above `key` (its parent, the parent's parent…): none of them may become its child. */
function ancestors(items: readonly Item[], key: string | null, shape: TreeShape): string[] {
  const parentOf = new Map(items.map((item) => [String(item[shape.primaryKey]), item[shape.parentField]]));
  const found: string[] = [];
  for (let current = key === null ? undefined : parentOf.get(key); current !== null && current !== undefined && !found.includes(String(current)); current = parentOf.get(String(current))) found.push(String(current));
  return found;
}

/**
 * `list-o2m-tree-view`: a recursive one-to-many (items of this collection whose parent field points at this
 * item) as a tree, every level deep. Drag an item beside or into another to move it (its branch moves
 * with it); add an existing item, or create one in a drawer of the collection's form (saved with the item,
 * a child at the top level until moved); remove one (its parent is cleared, its own children stay with it).
 * The whole tree is saved with the item as one nested o2m value (`enableSelect`, `enableCreate` hide adding).
 */
export function TreeViewInterface({ field, value, onChange, disabled, options }: InterfaceProps<Item[]>) {
  const schema = useSchema();
  const translate = useTranslate();
  const key = useItemKey(field.collection);
  const target = relatedTarget(schema, field);
  const relation = schema.relationOf(field.collection, field.field);
  const shape = useMemo<TreeShape | null>(
    () => (target?.backField && target.collection === field.collection ? { primaryKey: target.primaryKey, parentField: target.backField, listField: field.field, sortField: relation?.meta?.sort_field ?? null } : null),
    [target?.backField, target?.collection, target?.primaryKey, field.collection, field.field, relation?.meta?.sort_field],
  );
  const [items, setItems] = useState<Item[] | null>(null);
  const [nodes, setNodes] = useState<TreeNode[]>([]);
  // The value last sent: another value coming in (the item read again after a save) reads the tree again.
  const [sent, setSent] = useState<unknown>(value);
  const [generation, setGeneration] = useState(0);
  const [creating, setCreating] = useState(false);
  // Keys of items made here: the tree's own, never an item's.
  const [created, setCreated] = useState(0);
  const permissions = usePermissionIndex();
  if (value !== sent && JSON.stringify(value ?? null) !== JSON.stringify(sent ?? null)) {
    setSent(value);
    // The first value is the item as first read, which the tree has been reading already.
    if (sent !== undefined) setGeneration((current) => current + 1);
  }
  // A string, so that the read below runs again only when what it reads changes (target is a new object each render).
  const fields = shape && target ? [...new Set([shape.primaryKey, shape.parentField, ...(shape.sortField ? [shape.sortField] : []), ...labelFields(schema, target.collection)])].join(',') : '';
  // A Refine list of the collection: the item's save invalidates it, so the tree is read again after a save
  // (items created here get their keys) even when the item's own list of children reads the same as before.
  const { result, query } = useList<Item>({ resource: target?.collection ?? field.collection, pagination: { mode: 'off' }, meta: { fields: fields.split(',') }, queryOptions: { enabled: Boolean(shape && target) } });
  const found = query.isError ? [] : query.isSuccess ? result.data : null;
  useEffect(() => {
    if (!shape || !found) return;
    setItems(found);
    setNodes(buildTree(found, key, shape));
  }, [shape, key, found]);
  useEffect(() => {
    if (generation > 0) void query.refetch();
  }, [generation]);

  if (!shape || !target) return <Alert type="warning" showIcon message={translate('content.tree.notRecursive')} />;
  const change = (next: TreeNode[]) => {
    setNodes(next);
    const emitted = treeValue(next, shape);
    setSent(emitted);
    onChange?.(emitted);
  };
  const label = (node: TreeNode) => renderTemplate(target.template, node.item, target.primaryKey) || (node.isNew ? translate('content.relation.newItem') : String(node.key));
  const canCreate = !disabled && options.enableCreate !== false && Boolean(permissions?.can(target.collection, 'create'));
  const toData = (list: TreeNode[]): TreeData[] =>
    list.map((node) => ({
      key: String(node.key),
      title: (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }} data-testid={`tree-node-${node.key}`}>
          {label(node)}
          {node.isNew && (
            <Tag color="processing" bordered={false}>
              {translate('content.relation.unsaved')}
            </Tag>
          )}
          {!disabled && (
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={translate('content.relation.remove')}
              onClick={(event) => {
                event.stopPropagation();
                change(moveOut(nodes, node.key));
              }}
            />
          )}
        </span>
      ),
      children: toData(node.children),
    }));
  const inTree = treeKeys(nodes).map(String);
  const excluded = [...inTree, ...(key === null ? [] : [key]), ...ancestors(items ?? [], key, shape)];

  return (
    <div data-testid={`tree-view-${field.field}`}>
      {items === null ? (
        <Typography.Text type="secondary">…</Typography.Text>
      ) : nodes.length === 0 ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
          {translate('content.relation.none')}
        </Typography.Text>
      ) : (
        <Tree
          blockNode
          defaultExpandAll
          selectable={false}
          draggable={!disabled && { icon: false }}
          treeData={toData(nodes)}
          onDrop={(info) => {
            const position = info.node.pos.split('-');
            const relative = info.dropPosition - Number(position[position.length - 1]);
            const where = !info.dropToGap ? 'inside' : relative === -1 ? 'before' : 'after';
            change(moveNode(nodes, info.dragNode.key as string, info.node.key as string, where));
          }}
          style={{ marginBottom: 8 }}
        />
      )}
      <Flex gap={8}>
        {!disabled && options.enableSelect !== false && (
          <div style={{ flex: 1, minWidth: 0 }}>
            <RelatedPicker
              key={inTree.join(',')}
              target={target}
              value={null}
              exclude={excluded}
              placeholder={translate('content.relation.add')}
              onPick={(item) => {
                if (!item) return;
                const picked = item[target.primaryKey] as string | number;
                const children = buildTree(items ?? [], picked, shape).filter((child) => !inTree.includes(String(child.key)));
                change([...nodes, { key: picked, item, children, hadChildren: children.length > 0 }]);
              }}
            />
          </div>
        )}
        {canCreate && (
          <CreateRelatedButton field={field.field} onClick={() => setCreating(true)} />
        )}
      </Flex>
      {canCreate && (
        <RelatedItemDrawer
          target={target}
          open={creating}
          onClose={() => setCreating(false)}
          onCreate={(item) => {
            setCreating(false);
            setCreated((count) => count + 1);
            change([...nodes, { key: `new:${created + 1}`, item, children: [], hadChildren: false, isNew: true }]);
          }}
        />
      )}
    </div>
  );
}

/** The tree without the node of `key` (its branch goes with it). */
function moveOut(nodes: readonly TreeNode[], key: string | number): TreeNode[] {
  return nodes.filter((node) => String(node.key) !== String(key)).map((node) => ({ ...node, children: moveOut(node.children, key) }));
}
