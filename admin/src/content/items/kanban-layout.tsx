import { UserOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Alert, App, Avatar, Badge, Card, Empty, Space, Spin, Tag, Typography, theme } from 'antd';
import { useState, type DragEvent } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { assetUrl } from '../../app/project-settings.tsx';
import type { LayoutProps } from '../../extensions/kinds.ts';
import { formatDate } from '../../i18n/format.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { itemPath } from '../../providers/resource-paths.ts';
import { renderTemplate } from '../display-template.ts';
import { fieldLabel } from '../field-label.ts';
import { valueText } from '../field-text.ts';
import { isToMany } from '../field-kinds.ts';
import { FILES_COLLECTION, USERS_COLLECTION } from '../interfaces/related.ts';
import { fileKeyOf } from './layout-fields.ts';
import { FieldOption, LayoutOptionsButton, stringOption, withOption } from './layout-options.tsx';
import { manualSortField } from './table-layout.tsx';
import { canGroupBy, useKanbanColumns, type KanbanColumn } from './use-kanban-columns.ts';
import { useCollection } from './use-collection.ts';

type Item = Record<string, unknown>;
type Key = string | number;
const USER_TEMPLATE = '{{first_name}} {{last_name}}';

/**
 * Directus's `kanban` layout: one column per value of a dropdown, status or many-to-one field (`groupField`).
 * Dragging a card to another column writes the field (PATCH); within a column, with the collection's
 * `sort_field`, it moves the card there (`/utils/sort`). Both only for users who may make that change.
 */
export default function KanbanLayout({ collection, primaryKey, allFields, query, options, onOptionsChange, onOpen, refresh }: LayoutProps) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { locale } = usePreferences();
  const { token } = theme.useToken();
  const model = useCollection(collection);
  const set = (name: string) => (value: unknown) => onOptionsChange(withOption(options, name, value));
  const plain = allFields.filter((field) => !isToMany(field));
  const groupable = plain.filter((field) => canGroupBy(field, model.targetOf(field)));
  const groupField = groupable.find((field) => field.field === stringOption(options, 'groupField')) ?? groupable[0] ?? null;
  const target = groupField ? model.targetOf(groupField) : null;
  const named = (name: string) => plain.find((field) => field.field === stringOption(options, name)) ?? null;
  const titleField = named('titleField') ?? plain.find((field) => field.type === 'string' && field.field !== groupField?.field) ?? null;
  const [textField, dateField, tagsField, userField, imageSource] = ['textField', 'dateField', 'tagsField', 'userField', 'imageSource'].map(named);
  const sortField = manualSortField(model, collection);
  const canMove = groupField !== null && model.can('update') && model.canField('update', groupField.field);
  const readFields = [primaryKey, groupField?.field, sortField, titleField?.field, textField?.field, dateField?.field, tagsField?.field, imageSource?.field, ...(userField ? ['first_name', 'last_name', 'avatar'].map((name) => `${userField.field}.${name}`) : [])].filter((name): name is string => Boolean(name));
  const board = useKanbanColumns(
    groupField ? { collection, groupField, target, groupTitle: stringOption(options, 'groupTitle'), fields: [...new Set(readFields)], filter: query.filter, search: query.search, sort: sortField ? [sortField] : query.sort, locale } : null,
  );
  const [dragged, setDragged] = useState<{ key: Key; from: Key | null } | null>(null);
  const [over, setOver] = useState<Key | null | undefined>(undefined);

  const move = async (item: Key, from: Key | null, to: Key | null, before: Key | null) => {
    try {
      if (from !== to) await apiRequest(itemPath(collection, item), { method: 'PATCH', body: { [groupField!.field]: to }, query: { fields: primaryKey } });
      if (sortField && before !== null && before !== item) await apiRequest(`/utils/sort/${encodeURIComponent(collection)}`, { method: 'POST', body: { item, to: before } });
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
    board.reload();
    refresh();
  };
  const dropOn = (event: DragEvent, column: Key | null, before: Key | null) => {
    event.preventDefault();
    event.stopPropagation();
    const moving = dragged;
    setDragged(null);
    setOver(undefined);
    if (!moving || (moving.from === column && (before === null || !sortField))) return;
    void move(moving.key, moving.from, column, before);
  };
  const allowDrop = (event: DragEvent, column: Key | null) => {
    if (!dragged) return;
    event.preventDefault();
    if (over !== column) setOver(column);
  };

  const groupFieldOptions = (
    <LayoutOptionsButton>
      <FieldOption label={translate('content.layouts.kanban.groupField')} option="groupField" value={groupField?.field} fields={groupable} onChange={set('groupField')} />
      {target && <FieldOption label={translate('content.layouts.kanban.groupTitle')} option="groupTitle" value={stringOption(options, 'groupTitle')} fields={model.schema.fieldsOf(target.collection).filter((field) => field.type === 'string')} onChange={set('groupTitle')} />}
      <FieldOption label={translate('content.layouts.kanban.titleField')} option="titleField" value={titleField?.field} fields={plain.filter((field) => !model.targetOf(field))} onChange={set('titleField')} />
      <FieldOption label={translate('content.layouts.kanban.textField')} option="textField" value={textField?.field} fields={plain.filter((field) => !model.targetOf(field))} onChange={set('textField')} />
      <FieldOption label={translate('content.layouts.kanban.imageSource')} option="imageSource" value={imageSource?.field} fields={plain.filter((field) => model.targetOf(field)?.collection === FILES_COLLECTION)} onChange={set('imageSource')} />
      <FieldOption label={translate('content.layouts.kanban.dateField')} option="dateField" value={dateField?.field} fields={plain.filter((field) => ['date', 'dateTime', 'timestamp'].includes(field.type))} onChange={set('dateField')} />
      <FieldOption label={translate('content.layouts.kanban.tagsField')} option="tagsField" value={tagsField?.field} fields={plain.filter((field) => field.type === 'json' || field.type === 'csv')} onChange={set('tagsField')} />
      <FieldOption label={translate('content.layouts.kanban.userField')} option="userField" value={userField?.field} fields={plain.filter((field) => model.targetOf(field)?.collection === USERS_COLLECTION)} onChange={set('userField')} />
    </LayoutOptionsButton>
  );

  if (!groupField) return <Empty description={translate('content.layouts.kanban.noGroupField')} data-testid="kanban-no-group" />;

  const card = (item: Item, column: KanbanColumn) => {
    const key = item[primaryKey] as Key;
    const file = imageSource ? fileKeyOf(item[imageSource.field]) : null;
    const user = userField ? (item[userField.field] as Item | null) : null;
    const tags = tagsField ? item[tagsField.field] : null;
    return (
      <Card
        key={String(key)}
        size="small"
        hoverable
        draggable={canMove}
        onDragStart={(event) => {
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', String(key));
          setDragged({ key, from: column.value });
        }}
        onDragEnd={() => {
          setDragged(null);
          setOver(undefined);
        }}
        onDragOver={(event) => allowDrop(event, column.value)}
        onDrop={(event) => dropOn(event, column.value, key)}
        onClick={() => onOpen(key)}
        style={{ marginBottom: 8, cursor: canMove ? 'grab' : 'pointer', opacity: dragged?.key === key ? 0.45 : 1 }}
        cover={file ? <img src={assetUrl(file, { width: 480, height: 240, fit: 'cover' })} alt="" loading="lazy" style={{ height: 120, objectFit: 'cover' }} /> : undefined}
        data-testid="kanban-card"
        data-key={String(key)}
      >
        <Typography.Text strong style={{ display: 'block' }} data-testid="kanban-card-title">
          {titleField ? valueText(titleField, item[titleField.field]) || '—' : String(key)}
        </Typography.Text>
        {textField && item[textField.field] !== null && item[textField.field] !== undefined && (
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0 }}>
            {valueText(textField, item[textField.field])}
          </Typography.Paragraph>
        )}
        {(dateField || tags || user) && (
          <Space size={4} wrap style={{ marginTop: 6 }}>
            {Array.isArray(tags) && tags.map((tag) => <Tag key={String(tag)}>{String(tag)}</Tag>)}
            {dateField && item[dateField.field] ? <Typography.Text type="secondary">{formatDate(String(item[dateField.field]), locale, dateField.type === 'date' ? 'date' : 'dateTime')}</Typography.Text> : null}
            {user && (
              <Space size={4}>
                <Avatar size="small" src={typeof user.avatar === 'string' ? assetUrl(user.avatar, { width: 48, height: 48, fit: 'cover' }) : undefined} icon={<UserOutlined />} />
                <Typography.Text type="secondary">{renderTemplate(USER_TEMPLATE, user)}</Typography.Text>
              </Space>
            )}
          </Space>
        )}
      </Card>
    );
  };

  return (
    <div data-testid="kanban-layout">
      <Space wrap style={{ marginBottom: 12 }}>
        {groupFieldOptions}
        <Typography.Text type="secondary">{translate('content.layouts.kanban.groupedBy', { field: fieldLabel(groupField, locale) })}</Typography.Text>
      </Space>
      {!canMove && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={translate('content.layouts.kanban.readOnly', { field: fieldLabel(groupField, locale) })} data-testid="kanban-read-only" />}
      {board.error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={board.error} />}
      <Spin spinning={board.loading}>
        <div style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'flex-start', paddingBottom: 8, minHeight: 200 }}>
          {board.columns.map((column) => (
            <div
              key={String(column.value)}
              onDragOver={(event) => allowDrop(event, column.value)}
              onDrop={(event) => dropOn(event, column.value, null)}
              style={{ flex: '0 0 272px', maxWidth: '85vw', background: token.colorFillQuaternary, borderRadius: token.borderRadiusLG, padding: 8, outline: dragged && over === column.value ? `2px dashed ${token.colorPrimary}` : undefined }}
              data-testid="kanban-column"
              data-value={column.value === null ? '' : String(column.value)}
            >
              <Space style={{ padding: '4px 4px 8px', width: '100%', justifyContent: 'space-between' }}>
                <Typography.Text strong data-testid="kanban-column-title">
                  {column.value === null ? translate('content.layouts.kanban.ungrouped') : column.title}
                </Typography.Text>
                <Badge count={column.total} showZero color={token.colorTextTertiary} overflowCount={99_999} />
              </Space>
              {column.items.map((item) => card(item, column))}
              {column.total > column.items.length && <Typography.Text type="secondary">{translate('content.layouts.kanban.more', { count: column.total - column.items.length })}</Typography.Text>}
            </div>
          ))}
        </div>
      </Spin>
    </div>
  );
}
