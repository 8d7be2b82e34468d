import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { App, Alert, Button, Empty, Input, Popconfirm, Result, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useNarrow } from '../../app/layout/use-narrow.ts';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { fieldLabel } from '../field-label.ts';
import { isPresentational, isToMany } from '../field-kinds.ts';
import { FilterBuilder } from '../filter-builder/filter-builder.tsx';
import { filterableFields } from '../filter-builder/filterable-fields.ts';
import { toFilter, type FilterGroup } from '../filter-builder/filter-model.ts';
import type { TesseraFilter } from '../../providers/query-mapping.ts';
import { ColumnsChooser, useVisibleColumns } from './columns-chooser.tsx';
import { useBulkSelection } from './bulk-selection.ts';
import { BulkToolbar } from './bulk-toolbar.tsx';
import { ListTransfer } from './list-transfer.tsx';
import ItemEditPage from './item-edit-page.tsx';
import { useCollection } from './use-collection.ts';
import { showReadPaths } from './read-paths.ts';
import { ManualFlowButtons } from '../../modules/flows/manual-flow-buttons.tsx';
import { BookmarkButton } from './bookmark-button.tsx';
import { DefaultPresetButton } from './default-preset-button.tsx';
import { announceBookmarksChanged } from './bookmarks.ts';
import { fromPreset, type ListView, type PresetRow } from './list-preset.ts';
import { useListPreset } from './use-list-preset.ts';
import './built-in-layouts.tsx';
import { tableLayout } from './table-layout.tsx';
import { layouts } from '../../extensions/kinds.ts';
import { useRegistry } from '../../extensions/registry.ts';

type Item = Record<string, unknown>;
type ArchiveView = 'active' | 'archived' | 'all';

/** `/content/:collection`: the items of a collection (or, for a singleton, its form). */
export default function ItemListPage() {
  const { collection = '' } = useParams();
  const [params] = useSearchParams();
  const bookmark = params.get('bookmark');
  const model = useCollection(collection);
  const views = useListPreset(collection, bookmark);
  if (model.schema.loading || !model.permissions || !views.loaded) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (model.info?.meta?.singleton) return <ItemEditPage singleton />;
  return <ItemList key={`${collection}:${bookmark ?? ''}`} collection={collection} preset={views.preset} bookmark={bookmark ? views.preset : null} onViewChange={views.save} />;
}

function ItemList({ collection, preset, bookmark, onViewChange }: { collection: string; preset: PresetRow | null; bookmark: PresetRow | null; onViewChange(view: ListView): void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { locale } = usePreferences();
  const narrow = useNarrow();
  const model = useCollection(collection);
  const meta = model.info?.meta;
  // The saved view this list starts from (a bookmark, or the default preset), as far as it still applies.
  const [initialView] = useState(() => (preset ? fromPreset(preset, model.fields.map((field) => field.field)) : {}));
  const [search, setSearch] = useState(initialView.search ?? '');
  const [filter, setFilter] = useState<FilterGroup>(initialView.filter ?? { logic: 'and', rules: [] });
  // Until the user picks one: active items, unless the collection turns the app's archive filter off.
  const [pickedArchiveView, setArchiveView] = useState<ArchiveView | null>(null);
  const archiveView: ArchiveView = pickedArchiveView ?? (meta?.archive_app_filter === false ? 'all' : 'active');

  const listable = useMemo(() => model.fields.filter((field) => !isPresentational(field) && !field.meta?.hidden), [model.fields]);
  const defaults = useMemo(() => listable.filter((field) => !isToMany(field) && field.type !== 'json' && field.type !== 'text' && !field.type.startsWith('geometry')).slice(0, 6).map((field) => field.field), [listable]);
  const openItem = useCallback((key: string | number) => navigate(`/content/${collection}/${encodeURIComponent(String(key))}`), [navigate, collection]);
  const [visible, setVisible] = useVisibleColumns(collection, defaults, listable.map((field) => field.field), initialView.fields);
  const sortField = meta?.sort_field ?? null;

  // Layouts (built-in and extensions') that can show this collection; the table when the chosen one cannot.
  const fitting = useRegistry(layouts).filter((entry) => !entry.fits || entry.fits(listable));
  const [layoutId, setLayoutId] = useState(initialView.layout ?? tableLayout.id);
  const [layoutOptions, setLayoutOptions] = useState<Record<string, Record<string, unknown>>>(initialView.layoutOptions ?? {});
  const layout = fitting.find((entry) => entry.id === layoutId) ?? layouts.get(tableLayout.id) ?? tableLayout;

  const readFields = useMemo(() => {
    const paths = new Set([model.primaryKey]);
    for (const name of visible) {
      const field = listable.find((entry) => entry.field === name);
      for (const path of field ? showReadPaths(field, model.targetOf(field), model.labelFieldsOf) : [name]) paths.add(path);
    }
    if (sortField) paths.add(sortField);
    // What the layout shows besides the columns (a card's title and image), as far as the fields exist.
    for (const path of layout.readFields?.(layoutOptions[layout.id] ?? {}, listable) ?? []) if (listable.some((field) => field.field === path.split('.')[0])) paths.add(path);
    return [...paths];
  }, [visible, listable, model, sortField, layout, layoutOptions]);

  const archiveFilter: TesseraFilter | null = useMemo(() => {
    if (!meta?.archive_field || archiveView === 'all') return null;
    const value = meta.archive_value;
    return { [meta.archive_field]: archiveView === 'archived' ? { _eq: value } : { _neq: value } };
  }, [meta, archiveView]);
  const userFilter = toFilter(filter);
  const combined = userFilter && archiveFilter ? { _and: [userFilter, archiveFilter] } : (userFilter ?? archiveFilter);
  const selection = useBulkSelection({ filter: combined, search });


  const { tableQuery, sorters, setSorters, currentPage, setCurrentPage, pageSize, setPageSize } = useTable<Item>({
    resource: collection,
    syncWithLocation: false,
    pagination: { pageSize: initialView.pageSize ?? 25, currentPage: initialView.page ?? 1 },
    // The saved sort, else the collection's manual order (`sort_field`), as Directus lists it.
    sorters: { initial: initialView.sort?.length ? initialView.sort : sortField ? [{ field: sortField, order: 'asc' }] : [] },
    meta: { fields: readFields, search: search || undefined, filter: combined },
    queryOptions: { enabled: visible.length > 0 },
  });
  const rows = (tableQuery.data?.data ?? []) as Item[];
  const pageKeys = rows.map((row) => row[model.primaryKey] as string | number);
  const total = tableQuery.data?.total ?? rows.length;

  const currentView: ListView = { fields: visible, sort: sorters.map((entry) => ({ field: entry.field, order: entry.order })), pageSize, page: currentPage, search, filter, layout: layoutId, layoutOptions };
  // Every change of the view (columns, sort, page size, search, filter, layout) is remembered (use-list-preset.ts).
  const viewKey = JSON.stringify([visible, sorters, pageSize, currentPage, search, filter, layoutId, layoutOptions]);
  // Only a view that differs from the last one saved (or the one the list opened with) is written.
  const savedView = useRef(viewKey);
  // The view as rendered last; the effect runs when its key changes, not on every new (equal) object.
  const latestView = useRef(currentView);
  latestView.current = currentView;
  useEffect(() => {
    if (viewKey === savedView.current) return;
    savedView.current = viewKey;
    onViewChange(latestView.current);
  }, [viewKey, onViewChange]);

  if (!model.info || !model.can('read')) return <Result status="403" subTitle={translate('app.forbidden')} />;

  const filtered = Boolean(search || userFilter || archiveView === 'archived');
  const empty = (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filtered ? translate('content.list.noMatch') : translate('content.list.empty')} data-testid="list-empty">
      {!filtered && model.can('create') && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/content/${collection}/+`)}>
          {translate('content.list.createFirst')}
        </Button>
      )}
    </Empty>
  );
  const Layout = layout.component;

  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap align="start">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="collection-title">
            {model.label}
            {bookmark?.bookmark && (
              <>
                <Tag closable onClose={() => navigate(`/content/${collection}`)} style={{ marginInlineStart: 12, verticalAlign: 'middle' }} data-testid="bookmark-tag">
                  {bookmark.bookmark}
                </Tag>
                <Popconfirm
                  title={translate('content.bookmarks.confirmDelete')}
                  onConfirm={async () => {
                    await apiRequest(`/presets/${bookmark.id}`, { method: 'DELETE' }).then(announceBookmarksChanged, (error: ApiHttpError) => message.error(error.message));
                    navigate(`/content/${collection}`);
                  }}
                >
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.bookmarks.delete')} data-testid="bookmark-delete" />
                </Popconfirm>
              </>
            )}
          </Typography.Title>
          <Typography.Text type="secondary" data-testid="list-count">{translate('content.list.count', { count: total })}</Typography.Text>
        </div>
        <Space wrap>
          <Input.Search allowClear defaultValue={initialView.search} placeholder={translate('content.list.search')} onSearch={setSearch} style={{ width: 240 }} data-testid="search" />
          <FilterBuilder fields={filterableFields(model.schema, listable, locale, translate)} value={filter} onChange={setFilter} />
          {meta?.archive_field && (
            <Segmented
              value={archiveView}
              onChange={(next) => setArchiveView(next as ArchiveView)}
              options={[
                { value: 'active', label: translate('content.list.active') },
                { value: 'archived', label: translate('content.list.archived') },
                { value: 'all', label: translate('content.list.all') },
              ]}
            />
          )}
          <BookmarkButton collection={collection} current={currentView} />
          <DefaultPresetButton collection={collection} current={currentView} />
          <ManualFlowButtons collection={collection} keys={selection.allMatching ? pageKeys : selection.keys} location="collection" />
          <ListTransfer collection={collection} view={{ fields: readFields.filter((path) => visible.includes(path.split('.')[0]!)), filter: combined, search, sort: sorters.map((entry) => `${entry.order === 'desc' ? '-' : ''}${entry.field}`) }} />
          {fitting.length > 1 && (
            <Segmented
              value={layout.id}
              onChange={(next) => setLayoutId(String(next))}
              // Below 992 px the layouts are icons only (their names as tooltips), so the switch fits a phone.
              options={fitting.map((entry) => {
                const name = entry.builtIn ? translate(entry.name) : entry.name;
                return { value: entry.id, label: <span data-testid={`layout-option-${entry.id}`} title={name} aria-label={name}>{entry.icon}{narrow && entry.icon ? null : <span style={{ marginInlineStart: entry.icon ? 6 : 0 }}>{name}</span>}</span> };
              })}
              data-testid="layout-switch"
            />
          )}
          <ColumnsChooser options={listable.map((field) => ({ value: field.field, label: fieldLabel(field, locale) }))} value={visible} onChange={setVisible} />
          {model.can('create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/content/${collection}/+`)} data-testid="create-item">
              {translate('buttons.create')}
            </Button>
          )}
        </Space>
      </Space>
      {meta?.note && <Alert type="info" showIcon message={resolveText(meta.note, locale)} style={{ marginBottom: 16 }} />}
      <BulkToolbar collection={collection} selection={selection} pageKeys={pageKeys} total={total} canUpdate={model.can('update')} canDelete={model.can('delete')} />
      <div data-testid={`layout-${layout.id}`}>
        <Layout
          collection={collection}
          primaryKey={model.primaryKey}
          fields={listable.filter((field) => visible.includes(field.field))}
          allFields={listable}
          query={{ fields: readFields, filter: combined, search, sort: sorters.map((entry) => `${entry.order === 'desc' ? '-' : ''}${entry.field}`), limit: pageSize, page: currentPage }}
          onQueryChange={(change) => {
            if (change.sort) setSorters(change.sort.map((entry) => ({ field: entry.replace(/^-/, ''), order: entry.startsWith('-') ? 'desc' : 'asc' })));
            if (change.limit && change.limit !== pageSize) setPageSize(change.limit);
            if (change.page) setCurrentPage(change.page);
          }}
          items={rows}
          total={total}
          loading={tableQuery.isFetching}
          selection={selection.allMatching ? pageKeys : selection.keys}
          onSelectionChange={model.can('delete') || model.can('update') ? selection.setKeys : undefined}
          options={layoutOptions[layout.id] ?? {}}
          onOptionsChange={(options) => setLayoutOptions((previous) => ({ ...previous, [layout.id]: options }))}
          onOpen={openItem}
          refresh={() => void tableQuery.refetch()}
          empty={empty}
        />
      </div>
    </div>
  );
}
