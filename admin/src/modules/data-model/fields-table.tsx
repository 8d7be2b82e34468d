import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined, HolderOutlined } from '@ant-design/icons';
import { useDelete, useTranslation } from '@refinedev/core';
import { App, Button, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState, type DragEvent } from 'react';
import type { FieldInfo } from '../../content/schema/types.ts';
import { apiRequest } from '../../providers/http-client.ts';
import { moveItem, reorderWrites } from './field-types.ts';
import { fieldTree, siblingsOf, type FieldTreeRow } from './field-tree.ts';

/**
 * A collection's fields in editor order, each group's fields nested (indented) under it as the item form
 * holds them. Rows are dragged (or moved with the arrows) among the fields of the same group; the new
 * order is saved as `meta.sort` on the fields whose position changed (`PATCH /fields/:collection`).
 */
export function FieldsTable({ collection, fields, indexable, onEdit, onChanged }: { collection: string; fields: FieldInfo[]; indexable: boolean; onEdit(field: FieldInfo): void; onChanged(): Promise<void> }) {
  const { translate } = useTranslation();
  const { mutateAsync: remove } = useDelete();
  const { message } = App.useApp();
  const [rows, setRows] = useState<FieldTreeRow<FieldInfo>[]>(() => fieldTree(fields));
  const [dragging, setDragging] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [indexing, setIndexing] = useState<string | null>(null);

  const setIndexed = async (field: string, indexed: boolean) => {
    setIndexing(field);
    try {
      // The server builds or drops the index CONCURRENTLY: a large table keeps taking writes meanwhile.
      await apiRequest(`/fields/${encodeURIComponent(collection)}/${encodeURIComponent(field)}`, { method: 'PATCH', body: { schema: { is_indexed: indexed } } });
      message.success(translate(indexed ? 'dataModel.field.indexedOn' : 'dataModel.field.indexedOff', { field }));
    } catch (failure) {
      message.error((failure as Error).message);
    } finally {
      setIndexing(null);
      await onChanged();
    }
  };

  useEffect(() => setRows(fieldTree(fields)), [fields]);

  /** Saves a new order of one group's fields (or the top level's). */
  const persist = async (siblings: FieldInfo[]) => {
    const writes = reorderWrites(siblings);
    const sortOf = new Map(writes.map((write) => [write.field, write.sort]));
    setRows(fieldTree(fields.map((field) => (sortOf.has(field.field) ? { ...field, meta: { ...field.meta, sort: sortOf.get(field.field)! } } as FieldInfo : field))));
    if (writes.length === 0) return;
    setSaving(true);
    try {
      // One request, one transaction: a reorder is saved whole or not at all.
      await apiRequest(`/fields/${encodeURIComponent(collection)}`, { method: 'PATCH', body: writes.map((write) => ({ field: write.field, meta: { sort: write.sort } })) });
    } catch (failure) {
      message.error((failure as Error).message);
    } finally {
      setSaving(false);
      await onChanged();
    }
  };

  /** Moves the row at `from` to where the row at `to` is, when both sit in the same group. */
  const move = (from: number, to: number) => {
    const moving = rows[from];
    const target = rows[to];
    if (!moving || !target || from === to || moving.parent !== target.parent) return;
    const siblings = siblingsOf(rows, moving);
    void persist(moveItem(siblings, siblings.indexOf(moving.field), siblings.indexOf(target.field)));
  };

  /** The row index of the sibling `step` places away from the row at `index` (-1 when there is none). */
  const siblingIndex = (index: number, step: -1 | 1): number => {
    const row = rows[index]!;
    const siblings = siblingsOf(rows, row);
    const neighbour = siblings[siblings.indexOf(row.field) + step];
    return neighbour ? rows.findIndex((candidate) => candidate.field === neighbour) : -1;
  };

  const dragProps = (index: number) => ({
    draggable: true,
    onDragStart: (event: DragEvent) => {
      setDragging(index);
      event.dataTransfer.effectAllowed = 'move';
    },
    onDragOver: (event: DragEvent) => event.preventDefault(),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      if (dragging !== null) move(dragging, index);
      setDragging(null);
    },
    'data-testid': `field-row-${rows[index]?.field.field}`,
    'data-depth': rows[index]?.depth ?? 0,
  });

  return (
    <Table<FieldTreeRow<FieldInfo>>
      scroll={{ x: 'max-content' }}
      rowKey={(row) => row.field.field}
      size="small"
      loading={saving}
      dataSource={rows}
      pagination={false}
      onRow={(_, index) => dragProps(index ?? 0) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { key: 'handle', width: 32, render: () => <HolderOutlined style={{ cursor: 'grab', color: '#999' }} aria-hidden /> },
        {
          title: translate('dataModel.field.name'),
          key: 'field',
          render: (_, { field, depth }) => (
            <Space size={6} style={{ paddingInlineStart: depth * 24 }}>
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>{field.field}</Typography.Text>
              {field.schema?.is_primary_key ? <Tag color="gold">{translate('dataModel.field.primaryKey')}</Tag> : null}
              {field.meta?.required ? <Tag color="red">{translate('dataModel.field.required')}</Tag> : null}
              {field.meta?.hidden ? <Tag>{translate('dataModel.field.hidden')}</Tag> : null}
              {field.meta?.readonly ? <Tag>{translate('dataModel.field.readonly')}</Tag> : null}
              {field.meta?.group ? <Tag color="blue" data-testid={`field-group-tag-${field.field}`}>{translate('dataModel.field.inGroup', { group: field.meta.group })}</Tag> : null}
            </Space>
          ),
        },
        { title: translate('dataModel.field.type'), key: 'type', width: 130, render: (_, { field }) => <Typography.Text code style={{ whiteSpace: 'nowrap' }}>{field.type}</Typography.Text> },
        ...(indexable
          ? [
              {
                title: <Tooltip title={translate('dataModel.field.indexedHelp')}>{translate('dataModel.field.indexed')}</Tooltip>,
                key: 'indexed',
                width: 90,
                render: (_: unknown, { field }: { field: FieldInfo }) =>
                  field.schema && !field.schema.is_primary_key ? (
                    <span onClick={(event) => event.stopPropagation()}>
                      <Switch
                        size="small"
                        checked={Boolean(field.schema.is_indexed)}
                        loading={indexing === field.field}
                        disabled={indexing !== null}
                        onChange={(checked) => void setIndexed(field.field, checked)}
                        aria-label={`${translate('dataModel.field.indexed')}: ${field.field}`}
                        data-testid={`field-indexed-${field.field}`}
                      />
                    </span>
                  ) : null,
              },
            ]
          : []),
        { title: translate('dataModel.field.interface'), key: 'interface', width: 170, render: (_, { field }) => <Typography.Text type="secondary">{field.meta?.interface ? translate(`dataModel.interfaces.${field.meta.interface}`, field.meta.interface) : ''}</Typography.Text> },
        {
          key: 'actions',
          width: 150,
          align: 'right',
          render: (_, { field }, index) => (
            <Space size={0} onClick={(event) => event.stopPropagation()}>
              <Tooltip title={translate('dataModel.field.moveUp')}>
                <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={siblingIndex(index, -1) < 0} onClick={() => move(index, siblingIndex(index, -1))} aria-label={translate('dataModel.field.moveUp')} data-testid={`field-up-${field.field}`} />
              </Tooltip>
              <Tooltip title={translate('dataModel.field.moveDown')}>
                <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={siblingIndex(index, 1) < 0} onClick={() => move(index, siblingIndex(index, 1))} aria-label={translate('dataModel.field.moveDown')} />
              </Tooltip>
              <Button type="text" size="small" icon={<EditOutlined />} onClick={() => onEdit(field)} aria-label={translate('shared.actions.edit')} data-testid={`field-edit-${field.field}`} />
              {field.schema?.is_primary_key ? null : (
                <Popconfirm
                  title={translate('dataModel.field.deleteConfirm')}
                  okText={translate('shared.actions.delete')}
                  cancelText={translate('shared.actions.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await remove({ resource: 'fields', id: `${collection}/${field.field}`, successNotification: false });
                    await onChanged();
                  }}
                >
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('shared.actions.delete')} />
                </Popconfirm>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
