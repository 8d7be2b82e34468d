import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Space, Table, theme } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { usePreferences } from '../../app/preferences.tsx';
import type { LayoutDefinition, LayoutProps } from '../../extensions/kinds.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { fieldLabel } from '../field-label.ts';
import { isToMany } from '../field-kinds.ts';
import { CellValue } from './cell-value.tsx';
import { rowKeyHandler } from './row-keyboard.ts';
import { useCollection } from './use-collection.ts';
import { useRowDrag } from './use-row-drag.ts';

type Item = Record<string, unknown>;

/** The collection's manual order (`meta.sort_field`), when the caller may change it for every item. */
export function manualSortField(model: ReturnType<typeof useCollection>, collection: string): string | null {
  const sortField = model.info?.meta?.sort_field ?? null;
  return sortField && model.permissions?.isUnrestricted(collection, 'update') && model.canField('update', sortField) ? sortField : null;
}

/** Directus's `tabular` layout: one row per item, one column per chosen field, sortable, paged, selectable. */
function TableLayout({ collection, primaryKey, fields, query, onQueryChange, items, total, loading, selection, onSelectionChange, onOpen, refresh, empty }: LayoutProps) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const { locale } = usePreferences();
  const model = useCollection(collection);
  const manualSort = manualSortField(model, collection) !== null;

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
    sorter: !isToMany(field) && !manualSort,
    sortOrder: manualSort ? undefined : orderOf(field.field),
    ellipsis: true,
    render: (value: unknown) => <CellValue field={field} value={value} target={model.targetOf(field)} locale={locale} />,
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
    <Table<Item>
      dataSource={items}
      loading={loading}
      rowKey={(item) => String(item[primaryKey])}
      locale={{ emptyText: empty }}
      columns={columns}
      size="middle"
      scroll={{ x: 'max-content' }}
      rowSelection={onSelectionChange ? { selectedRowKeys: selection.map(String), onChange: (keys) => onSelectionChange(keys.map(itemKey)) } : undefined}
      onChange={(pagination, _filters, sorter, extra) => {
        if (extra.action === 'paginate') onQueryChange({ page: pagination.current ?? 1, limit: pagination.pageSize ?? query.limit });
        if (extra.action === 'sort') {
          const sorters = (Array.isArray(sorter) ? sorter : [sorter]) as Array<SorterResult<Item>>;
          onQueryChange({ page: 1, sort: sorters.filter((entry) => entry.order && entry.columnKey).map((entry) => `${entry.order === 'descend' ? '-' : ''}${String(entry.columnKey)}`) });
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
  );
}

/** The built-in table, registered like any other layout (item-list-page.tsx registers the built-ins). */
export const tableLayout: LayoutDefinition = { id: 'tabular', name: 'content.list.layoutTable', icon: <TableOutlined />, builtIn: true, component: TableLayout };
