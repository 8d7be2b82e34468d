import { HistoryOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Empty, Popover, Spin, Typography, theme } from 'antd';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useFormat } from '../../app/use-format.ts';
import { apiData } from '../../providers/http-client.ts';
import { changesByField, type FieldChange, type Revision } from './field-changes.ts';

type Loader = () => Promise<Map<string, FieldChange[]>>;

const FieldHistoryContext = createContext<Loader | null>(null);

/** Gives the fields of one item their history; the revisions are read on the first hover, once. */
export function FieldHistoryProvider({ collection, item, version, children }: { collection: string; item: string | null; version: unknown; children: ReactNode }) {
  const cached = useRef<{ key: unknown; changes: Promise<Map<string, FieldChange[]>> } | null>(null);
  // A save makes new revisions: a new `version` (the read's update time) reads them again.
  const load = useCallback<Loader>(() => {
    const key = `${collection}/${item}/${String(version)}`;
    if (cached.current?.key !== key) {
      const changes = apiData<Revision[]>('/revisions', {
        query: { filter: { collection: { _eq: collection }, item: { _eq: item } }, sort: '-id', limit: 100, fields: 'delta,activity.timestamp,activity.user.first_name,activity.user.last_name,activity.user.email' },
      }).then((rows) => changesByField(rows ?? []));
      cached.current = { key, changes };
    }
    return cached.current.changes;
  }, [collection, item, version]);
  return <FieldHistoryContext.Provider value={item === null ? null : load}>{children}</FieldHistoryContext.Provider>;
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A history mark beside a field: hovering it lists the field's earlier values. Nothing outside an item with revisions. */
export function FieldHistory({ field }: { field: string }) {
  const load = useContext(FieldHistoryContext);
  const translate = useTranslate();
  const format = useFormat();
  const { token } = theme.useToken();
  const [changes, setChanges] = useState<FieldChange[] | null>(null);
  if (!load) return null;
  const content =
    changes === null ? (
      <Spin size="small" />
    ) : changes.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('content.fieldHistory.none')} />
    ) : (
      <div style={{ maxWidth: 320, maxHeight: 260, overflowY: 'auto' }} data-testid={`history-list-${field}`}>
        {changes.slice(0, 10).map((change, index) => (
          <div key={index} style={{ marginBottom: 6 }}>
            <Typography.Text code>{shown(change.value)}</Typography.Text>
            <br />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {[change.user, change.timestamp ? format.date(change.timestamp) : null].filter(Boolean).join(' · ')}
            </Typography.Text>
          </div>
        ))}
      </div>
    );
  return (
    <Popover
      title={translate('content.fieldHistory.title')}
      content={content}
      trigger={['hover', 'focus']}
      placement="left"
      onOpenChange={(open) => {
        if (open) void load().then((all) => setChanges(all.get(field) ?? []), () => setChanges([]));
      }}
    >
      <HistoryOutlined tabIndex={0} style={{ position: 'absolute', top: 4, right: 12, zIndex: 1, color: token.colorTextTertiary }} data-testid={`history-${field}`} />
    </Popover>
  );
}
