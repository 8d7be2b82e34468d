import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../providers/http-client.ts';

/** One entry of GET /utils/index-advice. */
interface Advice {
  shape: { sort: string[]; filter: Record<string, string>; search: boolean };
  count: number;
  p95_ms: number;
  index: { name: string; kind: 'btree' | 'trigram'; columns: string[] };
}

/**
 * The sorts and filters of one collection the server has answered slowly, each with the index that
 * would serve it and a button that builds it (POST /utils/index-advice/apply, CONCURRENTLY).
 */
export function IndexAdvicePanel({ collection, onChanged }: { collection: string; onChanged(): Promise<void> }) {
  const { translate } = useTranslation();
  const { message } = App.useApp();
  const [advice, setAdvice] = useState<Advice[]>([]);
  const [loading, setLoading] = useState(false);
  const [adding, setAdding] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const { data } = await apiRequest<{ data: Advice[] }>('/utils/index-advice', { query: { collection } });
      setAdvice(data);
    } catch (failure) {
      message.error((failure as Error).message);
    } finally {
      setLoading(false);
    }
  }, [collection, message]);

  useEffect(() => {
    void load();
  }, [load]);

  const add = async (item: Advice) => {
    setAdding(item.index.name);
    try {
      const { data } = await apiRequest<{ data: { name: string } }>('/utils/index-advice/apply', { method: 'POST', body: { collection, columns: item.index.columns, kind: item.index.kind } });
      message.success(translate('dataModel.advice.added', { name: data.name }));
      await onChanged();
      await load();
    } catch (failure) {
      message.error((failure as Error).message);
    } finally {
      setAdding(null);
    }
  };

  return (
    <Card
      size="small"
      title={translate('dataModel.advice.title')}
      data-testid="index-advice"
      extra={<Button size="small" icon={<ReloadOutlined />} onClick={() => void load()} aria-label={translate('dataModel.advice.refresh')} data-testid="index-advice-refresh" />}
    >
      <Typography.Paragraph type="secondary">{translate('dataModel.advice.help')}</Typography.Paragraph>
      <Table<Advice>
        size="small"
        rowKey={(item) => item.index.name}
        loading={loading}
        dataSource={advice}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: translate('dataModel.advice.empty') }}
        columns={[
          {
            key: 'shape',
            title: `${translate('dataModel.advice.sort')} / ${translate('dataModel.advice.filter')}`,
            render: (_, item) => (
              <Space size={4} wrap>
                {item.shape.sort.map((entry) => <Tag key={`sort-${entry}`} color="blue">{`${translate('dataModel.advice.sort')}: ${entry}`}</Tag>)}
                {Object.keys(item.shape.filter).map((name) => <Tag key={`filter-${name}`} color="purple">{`${translate('dataModel.advice.filter')}: ${name}`}</Tag>)}
                {item.shape.search ? <Tag color="green">{translate('dataModel.advice.search')}</Tag> : null}
              </Space>
            ),
          },
          { key: 'count', title: translate('dataModel.advice.reads'), dataIndex: 'count', width: 80 },
          { key: 'p95', title: translate('dataModel.advice.p95'), dataIndex: 'p95_ms', width: 130 },
          {
            key: 'index',
            title: translate('dataModel.advice.index'),
            render: (_, item) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{`(${item.index.columns.join(', ')})`}</Typography.Text>
                <Typography.Text type="secondary">{translate(`dataModel.advice.kind.${item.index.kind}`)}</Typography.Text>
              </Space>
            ),
          },
          {
            key: 'add',
            align: 'right',
            render: (_, item) => (
              <Button size="small" type="primary" icon={<PlusOutlined />} loading={adding === item.index.name} disabled={adding !== null} onClick={() => void add(item)} data-testid={`index-advice-add-${item.index.name}`}>
                {translate('dataModel.advice.add')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
