import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Space, Table, theme } from 'antd';
import { useState } from 'react';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { usePreferences } from '../../app/preferences.tsx';
import type { LayoutDefinition, LayoutProps } from '../../extensions/kinds.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { fieldLabel } from '../field-label.ts';
import { isToMany } from '../field-kinds.ts';
import { CellValue } from './cell-value.tsx';
import { ResizableHeaderCell, type ResizableHeaderProps } from './column-resize.tsx';
import { ChoiceOption, LayoutOptionsButton } from './layout-options.tsx';
import { PresenceAvatars } from './presence-avatars.tsx';
import { rowKeyHandler } from './row-keyboard.ts';
import { useCollectionPresence } from './use-collection-presence.ts';
import { useCollection } from './use-collection.ts';
import { useRowDrag } from './use-row-drag.ts';

type Item = Record<string, unknown>;

/** The collection's manual order (`meta.sort_field`), when the caller may change it for every item. */
export function manualSortField(model: ReturnType<typeof useCollection>, collection: string): string | null {
  const sortField = model.info?.meta?.sort_field ?? null;
  return sortField && model.permissions?.isUnrestricted(collection, 'update') && model.canField('update', sortField) ? sortField : null;
}

/** Directus's row heights (`spacing`) as antd's table sizes. */
const SPACINGS = { compact: 'small', cozy: 'middle', comfortable: 'large' } as const;
type Spacing = keyof typeof SPACINGS;

/** The widths the user gave columns (`widths`: field → pixels), keeping only numbers. */
function widthsOf(options: Record<string, unknown>): Record<string, number> {
  const stored = options.widths && typeof options.widths === 'object' && !Array.isArray(options.widths) ? (options.widths as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0));
}

/**
 * Directus's `tabular` layout: one row per item, one column per chosen field, sortable, paged, selectable;
 * columns take the width they are dragged to and rows one of three heights (`layout_options.tabular`
 * `widths`, `spacing`).
 */
function TableLayout({ collection, primaryKey, fields, query, onQueryChange, items, total, loading, selection, onSelectionChange, options, onOptionsChange, onOpen, refresh, empty }: LayoutProps) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const { locale } = usePreferences();
  const model = useCollection(collection);
  const sortField = manualSortField(model, collection);
  // Rows are dragged while they are listed in their manual order; sorting by a column leaves it, and clearing that sort returns to it.
  const manualSort = sortField !== null && (query.sort.length === 0 || (query.sort.length === 1 && query.sort[0] === sortField));
  const saved = widthsOf(options);
  const [dragging, setDragging] = useState<{ field: string; width: number } | null>(null);
  const widths = dragging ? { ...saved, [dragging.field]: dragging.width } : saved;
  const spacing: Spacing = typeof options.spacing === 'string' && options.spacing in SPACINGS ? (options.spacing as Spacing) : 'cozy';
  // Avatars of whoever has a row's item open, beside its first value (collaborative editing).
  const presence = useCollectionPresence(collection, model.can('read'));

  /** Moves `item` to the place of `target` (`/utils/sort` shifts the rows in between). */
  const moveTo = async (item: Item, target: Item) => {
    if (item === target) return;
    try {
      await apiRequest(`/utils/sort/${encodeURIComponent(collection)}`, { method: 'POST', body: { item: item[primaryKey], to: target[primaryKey] } });
      refresh();
    } catch (error) {
      message.error((error as ApiHttpError).message);
    }
  };
  const move = (item: Item, direction: -1 | 1) => {
    const neighbour = items[items.indexOf(item) + direction];
    if (neighbour) void moveTo(item, neighbour);
  };
  // Row keys are text (rowKey); the selection holds the items' own keys, numbers stay numbers for batch writes.
  const itemKey = (rowKey: React.Key) => (items.find((item) => String(item[primaryKey]) === String(rowKey))?.[primaryKey] ?? rowKey) as string | number;
  const drag = useRowDrag<Item>(manualSort && !loading, (item, target) => void moveTo(item, target));

  const orderOf = (field: string) => {
    const entry = query.sort.find((sort) => sort.replace(/^-/, '') === field);
    return entry ? (entry.startsWith('-') ? ('descend' as const) : ('ascend' as const)) : null;
  };
  const columns: ColumnsType<Item> = fields.map((field) => ({
    key: field.field,
    dataIndex: field.field,
    title: fieldLabel(field, locale),
    sorter: !isToMany(field),
    sortOrder: orderOf(field.field),
    ellipsis: true,
    width: widths[field.field],
    onHeaderCell: () =>
      ({
        onResize: (width: number, done: boolean) => {
          if (!done) return setDragging({ field: field.field, width });
          setDragging(null);
          onOptionsChange({ ...options, widths: { ...saved, [field.field]: width } });
        },
      }) as ResizableHeaderProps,
    render: (value: unknown, item: Item) => {
      const cell = <CellValue field={field} value={value} target={model.targetOf(field)} locale={locale} />;
      const here = field === fields[0] ? presence[String(item[primaryKey])] : undefined;
      return here && here.length > 0 ? <Space size={6}><PresenceAvatars users={here} size="small" testId={`row-presence-${String(item[primaryKey])}`} />{cell}</Space> : cell;
    },
  }));
  if (manualSort) {
    columns.unshift({
      key: '__sort',
      width: 104,
      title: translate('content.list.order'),
      render: (_, item, index) => (
        <Space size={0} onClick={(event) => event.stopPropagation()}>
          <HolderOutlined style={{ cursor: 'grab', color: token.colorTextTertiary, padding: '0 4px' }} aria-hidden data-testid="drag-handle" />
          <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={translate('content.list.moveUp')} disabled={index === 0} onClick={() => move(item, -1)} />
          <Button size="small" type="text" icon={<ArrowDownOutlined />} aria-label={translate('content.list.moveDown')} disabled={index === items.length - 1} onClick={() => move(item, 1)} />
        </Space>
      ),
    });
  }

  return (
    <>
    <Space style={{ width: '100%', justifyContent: 'end', marginBottom: 8 }}>
      <LayoutOptionsButton>
        <ChoiceOption
          label={translate('content.layouts.tabular.spacing')}
          option="spacing"
          value={spacing}
          onChange={(value) => onOptionsChange({ ...options, spacing: value })}
          choices={(Object.keys(SPACINGS) as Spacing[]).map((value) => ({ value, label: translate(`content.layouts.tabular.${value}`) }))}
        />
      </LayoutOptionsButton>
    </Space>
    <Table<Item>
      components={{ header: { cell: ResizableHeaderCell } }}
      dataSource={items}
      loading={loading}
      rowKey={(item) => String(item[primaryKey])}
      locale={{ emptyText: empty }}
      columns={columns}
      size={SPACINGS[spacing]}
      scroll={{ x: 'max-content' }}
      rowSelection={onSelectionChange ? { selectedRowKeys: selection.map(String), onChange: (keys) => onSelectionChange(keys.map(itemKey)) } : undefined}
      onChange={(pagination, _filters, sorter, extra) => {
        if (extra.action === 'paginate') onQueryChange({ page: pagination.current ?? 1, limit: pagination.pageSize ?? query.limit });
        if (extra.action === 'sort') {
          const sorters = (Array.isArray(sorter) ? sorter : [sorter]) as Array<SorterResult<Item>>;
          const sort = sorters.filter((entry) => entry.order && entry.columnKey).map((entry) => `${entry.order === 'descend' ? '-' : ''}${String(entry.columnKey)}`);
          onQueryChange({ page: 1, sort: sort.length === 0 && sortField ? [sortField] : sort });
        }
      }}
      onRow={(item, index = 0) => {
        const dragProps = drag.rowProps(item, index, token.colorPrimary);
        const key = item[primaryKey] as string | number;
        const toggle = onSelectionChange ? () => onSelectionChange(selection.includes(key) ? selection.filter((entry) => entry !== key) : [...selection, key]) : undefined;
        return { ...dragProps, tabIndex: 0, onKeyDown: rowKeyHandler({ open: () => onOpen(key), toggle }), onClick: () => onOpen(key), style: { cursor: 'pointer', ...dragProps.style }, 'data-testid': 'list-row' } as React.HTMLAttributes<HTMLElement>;
      }}
      pagination={{ current: query.page, pageSize: query.limit, total, showSizeChanger: true, pageSizeOptions: [25, 50, 100] }}
    />
    </>
  );
}

/** The built-in table, registered like any other layout (item-list-page.tsx registers the built-ins). */
export const tableLayout: LayoutDefinition = { id: 'tabular', name: 'content.list.layoutTable', icon: <TableOutlined />, builtIn: true, component: TableLayout };
