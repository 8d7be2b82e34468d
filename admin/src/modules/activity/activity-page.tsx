import { useTable } from '@refinedev/antd';
import { useSelect, useTranslation } from '@refinedev/core';
import { Card, DatePicker, Flex, Select, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useCollectionName } from '../../app/system-labels.ts';
import { useFormat } from '../../app/use-format.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { MentionText, useMentionNames } from '../../content/items/mention-text.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { ACTION_COLOURS, ACTIVITY_ACTIONS, activityFilter, activityItemLink } from './activity-links.ts';

interface ActivityRecord {
  id: number;
  action: string;
  collection: string;
  item: string;
  timestamp: string;
  comment: string | null;
  ip: string | null;
  user_agent: string | null;
  origin: string | null;
  user: { id: string; first_name: string | null; last_name: string | null; email: string | null } | null;
}

const FIELDS = ['id', 'action', 'collection', 'item', 'timestamp', 'comment', 'ip', 'user_agent', 'origin', 'user.id', 'user.first_name', 'user.last_name', 'user.email'];

function userName(user: ActivityRecord['user']): string {
  if (!user) return '—';
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email || user.id;
}

/** The activity log: who did what to which item and when, filtered by user, action, collection and date. */
export default function ActivityPage() {
  const { translate } = useTranslation();
  const schema = useSchema();
  const format = useFormat();
  const collectionName = useCollectionName();
  const [choice, setChoice] = useState<{ user?: string; action?: string; collection?: string; range?: [Dayjs | null, Dayjs | null] | null }>({});
  const filter = useMemo(
    () =>
      activityFilter({
        user: choice.user,
        action: choice.action,
        collection: choice.collection,
        from: choice.range?.[0]?.startOf('day').toISOString() ?? null,
        to: choice.range?.[1]?.endOf('day').toISOString() ?? null,
      }),
    [choice],
  );
  const { options: users } = useSelect({
    resource: 'users',
    optionLabel: (user) => userName(user as ActivityRecord['user']),
    optionValue: 'id',
    pagination: { mode: 'off' },
    meta: { fields: ['id', 'first_name', 'last_name', 'email'] },
    errorNotification: false,
  });
  const { tableProps } = useTable<ActivityRecord>({
    resource: 'activity',
    syncWithLocation: false,
    sorters: { initial: [{ field: 'timestamp', order: 'desc' }] },
    pagination: { pageSize: 25 },
    meta: { fields: FIELDS, filter },
  });
  const rows = tableProps.dataSource;
  const comments = useMemo(() => (rows ?? []).map((entry) => entry.comment), [rows]);
  const mentionNames = useMentionNames(comments);

  return (
    <>
      <PageHeader title={translate('activity.title')} subtitle={translate('activity.subtitle')} testId="activity-title" />
      <Card size="small">
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Select allowClear showSearch optionFilterProp="label" placeholder={translate('activity.fields.user')} style={{ width: 220 }} options={users} onChange={(user?: string) => setChoice((current) => ({ ...current, user }))} data-testid="activity-user" />
          <Select allowClear placeholder={translate('activity.fields.action')} style={{ width: 160 }} options={ACTIVITY_ACTIONS.map((action) => ({ value: action, label: translate(`activity.actions.${action}`) }))} onChange={(action?: string) => setChoice((current) => ({ ...current, action }))} data-testid="activity-action" />
          <Select allowClear showSearch optionFilterProp="label" placeholder={translate('activity.fields.collection')} style={{ width: 220 }} options={schema.collections.filter((collection) => collection.schema).map((collection) => ({ value: collection.collection, label: collectionName(collection.collection, collection) }))} onChange={(collection?: string) => setChoice((current) => ({ ...current, collection }))} data-testid="activity-collection" />
          <DatePicker.RangePicker onChange={(range) => setChoice((current) => ({ ...current, range }))} />
        </Flex>
        <Table<ActivityRecord>
          scroll={{ x: 'max-content' }}
          {...tableProps}
          rowKey="id"
          size="middle"
          expandable={{
            expandedRowRender: (entry) => (
              <Typography.Text type="secondary">
                IP {entry.ip ?? '—'} · {entry.origin ?? '—'} · {entry.user_agent ?? '—'}
              </Typography.Text>
            ),
          }}
          columns={[
            { title: translate('activity.fields.timestamp'), dataIndex: 'timestamp', key: 'timestamp', sorter: true, width: 200, render: (value: string) => format.date(value) },
            { title: translate('activity.fields.user'), key: 'user', render: (_, entry) => userName(entry.user) },
            { title: translate('activity.fields.action'), dataIndex: 'action', key: 'action', width: 120, render: (action: string) => <Tag color={ACTION_COLOURS[action]}>{translate(`activity.actions.${action}`, action)}</Tag> },
            {
              title: translate('activity.fields.collection'),
              dataIndex: 'collection',
              key: 'collection',
              sorter: true,
              render: (name: string) => {
                return collectionName(name, schema.collection(name));
              },
            },
            {
              title: translate('activity.fields.item'),
              key: 'item',
              render: (_, entry) => {
                const link = activityItemLink(entry);
                return link ? (
                  <Link to={link} data-testid={`activity-item-${entry.collection}-${entry.item}`}>
                    {entry.item}
                  </Link>
                ) : (
                  entry.item
                );
              },
            },
            { title: translate('activity.fields.comment'), dataIndex: 'comment', key: 'comment', render: (value: string | null) => (value ? <MentionText text={value} names={mentionNames} /> : '') },
          ]}
        />
      </Card>
    </>
  );
}
