import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Alert, Button, Drawer, Table, Tag, Typography } from 'antd';
import type { DeliveryAttempt } from '../../../../server/webhooks/webhook-deliveries.ts';
import { useFormat } from '../../app/use-format.ts';
import { useJobLog, type QueuedJob } from '../../jobs/use-job-log.ts';
import type { WebhookRecord } from './webhook-rules.ts';

/** A webhook's delivery log (GET /webhooks/:id/deliveries): attempts, and jobs still queued; refreshable. */
export function WebhookDeliveries({ webhook, onClose }: { webhook: WebhookRecord | null; onClose(): void }) {
  const { translate } = useTranslation();
  const format = useFormat();
  const { log, loading, error, reload } = useJobLog<DeliveryAttempt>(webhook ? `/webhooks/${webhook.id}/deliveries` : null);

  return (
    <Drawer
      open={webhook !== null}
      onClose={onClose}
      width={900}
      title={`${translate('webhooks.log.title')} · ${webhook?.name ?? ''}`}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void reload()} loading={loading} data-testid="webhook-log-refresh">
          {translate('webhooks.log.refresh')}
        </Button>
      }
    >
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      {log && log.queued.length > 0 ? (
        <>
          <Typography.Title level={5}>{translate('webhooks.log.queued')}</Typography.Title>
          <Table<QueuedJob>
            rowKey="job_id"
            size="small"
            pagination={false}
            dataSource={log.queued}
            style={{ marginBottom: 24 }}
            data-testid="webhook-queued"
            columns={[
              { title: translate('webhooks.log.state'), dataIndex: 'state', render: (state: string) => <Tag color="processing">{translate(`webhooks.log.states.${state}`)}</Tag> },
              { title: translate('webhooks.log.attempt'), key: 'attempt', render: (_, job) => `${job.attempts}/${job.max_attempts}` },
              { title: translate('webhooks.log.runAt'), dataIndex: 'run_at', render: (value: string) => format.date(value) },
              { title: translate('webhooks.log.lastError'), dataIndex: 'last_error', render: (value: string | null) => value ?? '' },
            ]}
          />
        </>
      ) : null}
      <Table<DeliveryAttempt>
        rowKey="id"
        size="small"
        loading={loading && !log}
        dataSource={log?.entries ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: translate('webhooks.log.empty') }}
        scroll={{ x: 'max-content' }}
        data-testid="webhook-attempts"
        columns={[
          { title: translate('webhooks.log.when'), dataIndex: 'date_created', render: (value: string) => format.date(value) },
          { title: translate('webhooks.log.event'), key: 'event', render: (_, entry) => `${entry.event}${entry.collection ? ` · ${entry.collection}` : ''}` },
          { title: translate('webhooks.log.attempt'), key: 'attempt', render: (_, entry) => `${entry.attempt}/${entry.max_attempts}` },
          { title: translate('webhooks.log.result'), dataIndex: 'status', render: (status: string) => <Tag color={status === 'success' ? 'success' : 'error'}>{translate(`webhooks.log.${status}`)}</Tag> },
          { title: translate('webhooks.log.httpStatus'), dataIndex: 'http_status', render: (value: number | null) => value ?? '—' },
          { title: translate('webhooks.log.duration'), dataIndex: 'duration_ms', render: (value: number) => `${format.number(value)} ms` },
          { title: translate('webhooks.log.error'), dataIndex: 'error', render: (value: string | null) => value ?? '' },
        ]}
      />
    </Drawer>
  );
}
