import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Alert, Button, Table, Tag, Typography } from 'antd';
import { useFormat } from '../../app/use-format.ts';
import { useJobLog } from '../../jobs/use-job-log.ts';

interface Step {
  operation: string;
  key: string;
  status: 'resolve' | 'reject';
  options: unknown;
  data: unknown;
}

interface Run {
  id: number;
  timestamp: string;
  user: string | null;
  status: 'resolved' | 'rejected' | null;
  trigger: unknown;
  steps: Step[] | null;
}

const json = (value: unknown) => (
  <pre style={{ margin: 0, maxHeight: 240, overflow: 'auto', fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{JSON.stringify(value, null, 2)}</pre>
);

/** A flow's run log (GET /flows/:id/runs): each run with its trigger and every step's data (secrets masked by the server), and runs still queued. */
export function RunLog({ flowId, refreshKey }: { flowId: string; refreshKey: number }) {
  const { translate } = useTranslation();
  const format = useFormat();
  const { log, loading, error, reload } = useJobLog<Run>(`/flows/${flowId}/runs`, refreshKey);

  return (
    <div data-testid="run-log">
      <Button icon={<ReloadOutlined />} onClick={() => void reload()} loading={loading} style={{ marginBottom: 12 }} data-testid="run-log-refresh">
        {translate('flows.runs.refresh')}
      </Button>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      {log && log.queued.length > 0 ? (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message={translate('flows.runs.queued', { count: log.queued.length })} description={log.queued.map((job) => `${translate(`flows.runs.states.${job.state}`)} ${job.attempts}/${job.max_attempts}${job.last_error ? ` · ${job.last_error}` : ''}`).join('\n')} />
      ) : null}
      <Table<Run>
        rowKey="id"
        size="small"
        loading={loading && !log}
        dataSource={log?.entries ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: translate('flows.runs.empty') }}
        onRow={(run) => ({ 'data-testid': `run-${run.id}` }) as never}
        expandable={{
          rowExpandable: (run) => run.steps !== null,
          expandedRowRender: (run) => (
            <div data-testid={`run-steps-${run.id}`}>
              <Typography.Text strong>{translate('flows.runs.trigger')}</Typography.Text>
              {json(run.trigger)}
              {(run.steps ?? []).map((step, index) => (
                <div key={index} style={{ marginTop: 12 }} data-testid={`run-step-${step.key}`}>
                  <Tag color={step.status === 'resolve' ? 'green' : 'red'}>{translate(`flows.runs.stepStatus.${step.status}`)}</Tag>
                  <Typography.Text code>{step.key}</Typography.Text>
                  <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12, marginTop: 4 }}>
                    <div>
                      <Typography.Text type="secondary">{translate('flows.runs.options')}</Typography.Text>
                      {json(step.options)}
                    </div>
                    <div>
                      <Typography.Text type="secondary">{translate('flows.runs.data')}</Typography.Text>
                      {json(step.data)}
                    </div>
                  </div>
                </div>
              ))}
            </div>
          ),
        }}
        columns={[
          { title: translate('flows.runs.when'), dataIndex: 'timestamp', render: (value: string) => format.date(value) },
          {
            title: translate('flows.runs.status'),
            dataIndex: 'status',
            render: (status: Run['status']) => (status ? <Tag color={status === 'resolved' ? 'green' : 'red'}>{translate(`flows.runs.statuses.${status}`)}</Tag> : <Tag>{translate('flows.runs.statuses.logged')}</Tag>),
          },
          { title: translate('flows.runs.steps'), key: 'steps', render: (_, run) => (run.steps ? run.steps.map((step) => step.key).join(' → ') : '') },
        ]}
      />
    </div>
  );
}
