import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { useDelete, useList, useTranslation, useUpdate } from '@refinedev/core';
import { Button, Card, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useCollectionName } from '../../app/system-labels.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { WebhookDeliveries } from './webhook-deliveries.tsx';
import { WebhookDrawer } from './webhook-drawer.tsx';
import { asList, type WebhookRecord } from './webhook-rules.ts';

const FIELDS = ['id', 'name', 'method', 'url', 'status', 'data', 'headers', 'actions', 'collections'];

function WebhooksList() {
  const { translate } = useTranslation();
  const schema = useSchema();
  const collectionName = useCollectionName();
  const [editing, setEditing] = useState<WebhookRecord | 'new' | null>(null);
  const [logOf, setLogOf] = useState<WebhookRecord | null>(null);
  const { result, query } = useList<WebhookRecord>({ resource: 'webhooks', pagination: { mode: 'off' }, sorters: [{ field: 'name', order: 'asc' }], meta: { fields: FIELDS } });
  const { mutateAsync: update } = useUpdate();
  const { mutateAsync: remove } = useDelete();

  return (
    <>
      <PageHeader
        title={translate('webhooks.title')}
        subtitle={translate('webhooks.subtitle')}
        testId="webhooks-title"
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="webhook-create">
            {translate('webhooks.create')}
          </Button>
        }
      />
      <Card size="small">
        <Table<WebhookRecord>
          rowKey="id"
          size="middle"
          loading={query.isLoading}
          dataSource={result.data}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(webhook) => ({ 'data-testid': `webhook-row-${webhook.name}` }) as never}
          columns={[
            { title: translate('webhooks.fields.name'), dataIndex: 'name', key: 'name' },
            { title: translate('webhooks.fields.method'), dataIndex: 'method', key: 'method', width: 90, render: (method: string) => <Tag>{method}</Tag> },
            { title: translate('webhooks.fields.url'), dataIndex: 'url', key: 'url', ellipsis: true },
            {
              title: translate('webhooks.fields.status'),
              key: 'status',
              width: 90,
              render: (_, webhook) => (
                <Switch
                  size="small"
                  checked={webhook.status === 'active'}
                  aria-label={translate('webhooks.fields.status')}
                  data-testid={`webhook-status-${webhook.name}`}
                  onChange={(on) => update({ resource: 'webhooks', id: webhook.id, values: { status: on ? 'active' : 'inactive' }, successNotification: false })}
                />
              ),
            },
            { title: translate('webhooks.fields.actions'), key: 'actions', render: (_, webhook) => asList(webhook.actions).map((action) => <Tag key={action}>{translate(`webhooks.actions.${action}`, action)}</Tag>) },
            { title: translate('webhooks.fields.collections'), key: 'collections', render: (_, webhook) => asList(webhook.collections).map((name) => <Tag key={name}>{collectionName(name, schema.collection(name))}</Tag>) },
            {
              key: 'tools',
              width: 140,
              render: (_, webhook) => (
                <Space size={4}>
                  <Button size="small" type="text" icon={<HistoryOutlined />} title={translate('webhooks.deliveries')} aria-label={translate('webhooks.deliveries')} onClick={() => setLogOf(webhook)} data-testid={`webhook-log-${webhook.name}`} />
                  <Button size="small" type="text" icon={<EditOutlined />} title={translate('webhooks.edit')} aria-label={translate('webhooks.edit')} onClick={() => setEditing(webhook)} data-testid={`webhook-edit-${webhook.name}`} />
                  <Popconfirm
                    title={translate('webhooks.deleteConfirm')}
                    okText={translate('shared.actions.delete')}
                    cancelText={translate('shared.actions.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove({ resource: 'webhooks', id: webhook.id, successNotification: false })}
                  >
                    <Button size="small" type="text" danger icon={<DeleteOutlined />} title={translate('shared.actions.delete')} aria-label={translate('shared.actions.delete')} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <WebhookDrawer webhook={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
      <WebhookDeliveries webhook={logOf} onClose={() => setLogOf(null)} />
    </>
  );
}

/** The webhooks screen (administrators only). */
export default function WebhooksPage() {
  return (
    <AdminOnly>
      <WebhooksList />
    </AdminOnly>
  );
}
