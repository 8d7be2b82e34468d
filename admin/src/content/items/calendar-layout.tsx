import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Alert, App, Button, Calendar, ConfigProvider, Empty, List, Space, Spin, Typography, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { useNarrow } from '../../app/layout/use-narrow.ts';
import type { LayoutProps } from '../../extensions/kinds.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { itemPath, resourcePath } from '../../providers/resource-paths.ts';
import { renderTemplate, templateFields } from '../display-template.ts';
import { templateText } from '../field-text.ts';
import { fieldLabel } from '../field-label.ts';
import { daysOf, monthSpan, reschedule, spanFilter, DATE_TYPES, type DateType } from './calendar-dates.ts';
import { FieldOption, LayoutOptionsButton, stringOption, TemplateOption, withOption } from './layout-options.tsx';
import { useCollection } from './use-collection.ts';

type Item = Record<string, unknown>;
type Key = string | number;

/** At most this many items are read for one month; the count says when the month holds more. */
export const CALENDAR_LIMIT = 1000;

/** Portuguese month names are written in lower case; a heading starts with a capital (`Novembro de 2026`). */
const capitalise = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

const isDateField = (type: string): type is DateType => (DATE_TYPES as readonly string[]).includes(type);

/**
 * Directus's `calendar` layout: a month of items placed by a date field (`startDateField`, through
 * `endDateField` when set), titled by a display template (`template`). Dragging an item to another day
 * writes its dates (PATCH), for users who may update the field. The month shown is kept (`viewInfo`).
 * Below 992 px the month is a list of its days that have items.
 */
export default function CalendarLayout({ collection, primaryKey, allFields, query, options, onOptionsChange, onOpen, refresh }: LayoutProps) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { locale } = usePreferences();
  const { token } = theme.useToken();
  const narrow = useNarrow();
  const model = useCollection(collection);
  const set = (name: string) => (value: unknown) => onOptionsChange(withOption(options, name, value));
  const dateFields = allFields.filter((field) => isDateField(field.type));
  const named = (name: string) => dateFields.find((field) => field.field === stringOption(options, name)) ?? null;
  const start = named('startDateField') ?? dateFields[0] ?? null;
  const end = named('endDateField');
  const template = stringOption(options, 'template') ?? `{{${(allFields.find((field) => field.type === 'string') ?? { field: primaryKey }).field}}}`;
  const viewInfo = (options.viewInfo ?? {}) as { startDateTime?: unknown };
  const [month, setMonth] = useState(() => (typeof viewInfo.startDateTime === 'string' && dayjs(viewInfo.startDateTime).isValid() ? dayjs(viewInfo.startDateTime) : dayjs()).startOf('month'));
  const span = useMemo(() => monthSpan(month), [month]);
  const canMove = start !== null && model.can('update') && model.canField('update', start.field) && (!end || model.canField('update', end.field));
  const [state, setState] = useState<{ items: Item[]; total: number; loading: boolean; error: string | null }>({ items: [], total: 0, loading: true, error: null });
  const [version, setVersion] = useState(0);
  const [dragged, setDragged] = useState<Key | null>(null);

  const filterKey = JSON.stringify([query.filter, query.search, start?.field, end?.field, template, span.first.valueOf(), version]);
  // What the read below uses, as rendered last: it runs again when filterKey (their content) changes.
  const inputs = useRef({ start, end, span, primaryKey, template, collection, query });
  inputs.current = { start, end, span, primaryKey, template, collection, query };
  useEffect(() => {
    const { start, end, span, primaryKey, template, collection, query } = inputs.current;
    if (!start) return;
    let cancelled = false;
    const own = spanFilter(span, { field: start.field, type: start.type as DateType }, end ? { field: end.field, type: end.type as DateType } : null);
    const fields = [...new Set([primaryKey, start.field, ...(end ? [end.field] : []), ...templateFields(template)])];
    setState((previous) => ({ ...previous, loading: true }));
    apiRequest<{ data: Item[]; meta?: { filter_count?: number } }>(resourcePath(collection), {
      query: { fields, filter: query.filter ? { _and: [query.filter, own] } : own, search: query.search || undefined, sort: [start.field], limit: CALENDAR_LIMIT, meta: 'filter_count' },
    }).then(
      (body) => !cancelled && setState({ items: body?.data ?? [], total: Number(body?.meta?.filter_count ?? 0), loading: false, error: null }),
      (failure: ApiHttpError) => !cancelled && setState({ items: [], total: 0, loading: false, error: failure.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [filterKey]);

  const byDay = useMemo(() => {
    const days = new Map<string, Item[]>();
    if (!start) return days;
    for (const item of state.items) for (const day of daysOf(item[start.field], end ? item[end.field] : null, span)) days.set(day, [...(days.get(day) ?? []), item]);
    return days;
  }, [state.items, start, end, span]);

  const showMonth = (next: Dayjs) => {
    setMonth(next.startOf('month'));
    onOptionsChange({ ...options, viewInfo: { type: 'dayGridMonth', startDateTime: next.startOf('month').format('YYYY-MM-DD') } });
  };
  const moveTo = async (key: Key, day: string) => {
    const item = state.items.find((entry) => entry[primaryKey] === key);
    if (!item || !start || typeof item[start.field] !== 'string') return;
    if (dayjs(item[start.field] as string).format('YYYY-MM-DD') === day) return;
    const body = reschedule(day, { field: start.field, type: start.type as DateType, value: item[start.field] as string }, end ? { field: end.field, type: end.type as DateType, value: item[end.field] } : null);
    try {
      await apiRequest(itemPath(collection, key), { method: 'PATCH', body, query: { fields: primaryKey } });
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
    setVersion((previous) => previous + 1);
    refresh();
  };
  const dropOn = (event: DragEvent, day: string) => {
    event.preventDefault();
    const key = dragged;
    setDragged(null);
    if (key !== null) void moveTo(key, day);
  };

  const entry = (item: Item) => {
    const key = item[primaryKey] as Key;
    return (
      <div
        key={String(key)}
        draggable={canMove}
        onDragStart={(event) => {
          event.stopPropagation();
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', String(key));
          setDragged(key);
        }}
        onDragEnd={() => setDragged(null)}
        onClick={(event) => {
          event.stopPropagation();
          onOpen(key);
        }}
        style={{ background: token.colorPrimaryBg, color: token.colorPrimaryText, borderRadius: 4, padding: '0 6px', marginBottom: 2, fontSize: 12, lineHeight: '20px', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', cursor: canMove ? 'grab' : 'pointer', opacity: dragged === key ? 0.45 : 1 }}
        data-testid="calendar-item"
        data-key={String(key)}
      >
        {renderTemplate(template, item, primaryKey, templateText(model.schema, collection))}
      </div>
    );
  };

  const header = (
    <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
      <Space>
        <Button icon={<LeftOutlined />} aria-label={translate('content.layouts.calendar.previous')} onClick={() => showMonth(month.subtract(1, 'month'))} data-testid="calendar-previous" />
        <Button onClick={() => showMonth(dayjs())}>{translate('content.layouts.calendar.today')}</Button>
        <Button icon={<RightOutlined />} aria-label={translate('content.layouts.calendar.next')} onClick={() => showMonth(month.add(1, 'month'))} data-testid="calendar-next" />
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="calendar-month">
          {capitalise(new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(month.toDate()))}
        </Typography.Title>
      </Space>
      <LayoutOptionsButton>
        <FieldOption label={translate('content.layouts.calendar.startDateField')} option="startDateField" value={start?.field} fields={dateFields} onChange={set('startDateField')} />
        <FieldOption label={translate('content.layouts.calendar.endDateField')} option="endDateField" value={end?.field} fields={dateFields.filter((field) => field.field !== start?.field)} onChange={set('endDateField')} />
        <TemplateOption label={translate('content.layouts.calendar.template')} option="template" value={stringOption(options, 'template')} onChange={set('template')} />
      </LayoutOptionsButton>
    </Space>
  );

  if (!start) return <Empty description={translate('content.layouts.calendar.noDateField')} />;
  const inMonth = [...byDay.entries()].filter(([day]) => dayjs(day).isSame(month, 'month')).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div data-testid="calendar-layout">
      {header}
      {!canMove && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={translate('content.layouts.calendar.readOnly', { field: fieldLabel(start, locale) })} data-testid="calendar-read-only" />}
      {state.error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={state.error} />}
      {state.total > state.items.length && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={translate('content.layouts.calendar.some', { shown: state.items.length, total: state.total })} />}
      <Spin spinning={state.loading}>
        {narrow ? (
          <List
            dataSource={inMonth}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('content.layouts.calendar.emptyMonth')} /> }}
            renderItem={([day, items]) => (
              <List.Item style={{ display: 'block' }} data-testid="calendar-day" data-day={day}>
                <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
                  {new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short' }).format(dayjs(day).toDate())}
                </Typography.Text>
                {items.map(entry)}
              </List.Item>
            )}
          />
        ) : (
          // The calendar's "selected" day is today when it is in the month shown, so no other day looks picked.
          <ConfigProvider theme={{ components: { Calendar: { itemActiveBg: 'transparent' } } }}>
          <Calendar
            value={dayjs().isSame(month, 'month') ? dayjs() : month}
            headerRender={() => null}
            onSelect={(date, info) => info.source === 'date' && !date.isSame(month, 'month') && showMonth(date)}
            cellRender={(date, info) => {
              if (info.type !== 'date') return info.originNode;
              const day = date.format('YYYY-MM-DD');
              return (
                <div onDragOver={(event) => dragged !== null && event.preventDefault()} onDrop={(event) => dropOn(event, day)} style={{ minHeight: '100%' }} data-testid="calendar-day" data-day={day}>
                  {(byDay.get(day) ?? []).map(entry)}
                </div>
              );
            }}
          />
          </ConfigProvider>
        )}
      </Spin>
    </div>
  );
}
