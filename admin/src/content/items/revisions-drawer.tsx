import { HistoryOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Drawer, Empty, List, Popconfirm, Tag, Typography } from 'antd';
import { useFormat } from '../../app/use-format.ts';
import { useEffect, useState } from 'react';
import { apiData, apiRequest, type ApiHttpError } from '../../providers/http-client.ts';

interface Revision {
  id: number;
  delta: Record<string, unknown> | null;
  activity: { action: string; timestamp: string; user: { email: string | null; first_name: string | null } | null } | null;
}

/** The revisions of an item, newest first, each restorable (`POST /utils/revert/:id`). */
export function RevisionsDrawer({ collection, id, onRestored }: { collection: string; id: string; onRestored: () => void }) {
  const translate = useTranslate();
  const format = useFormat();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [revisions, setRevisions] = useState<Revision[] | null>(null);

  const load = () =>
    apiData<Revision[]>('/revisions', {
      query: { filter: { collection: { _eq: collection }, item: { _eq: id } }, sort: '-id', limit: 50, fields: 'id,delta,activity.action,activity.timestamp,activity.user.email,activity.user.first_name' },
    })
      .then((rows) => setRevisions(rows ?? []))
      .catch((error: ApiHttpError) => {
        setRevisions([]);
        message.error(error.message);
      });

  useEffect(() => {
    if (open) void load();
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps

  const restore = async (revision: Revision) => {
    try {
      await apiRequest(`/utils/revert/${revision.id}`, { method: 'POST' });
      message.success(translate('content.revisions.restored'));
      setOpen(false);
      onRestored();
    } catch (error) {
      message.error((error as ApiHttpError).message);
    }
  };

  return (
    <>
      <Button icon={<HistoryOutlined />} onClick={() => setOpen(true)} data-testid="open-revisions">
        {translate('content.revisions.title')}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={translate('content.revisions.title')} width={440}>
        {revisions && revisions.length === 0 ? (
          <Empty description={translate('content.revisions.none')} />
        ) : (
          <List
            loading={revisions === null}
            dataSource={revisions ?? []}
            renderItem={(revision, index) => (
              <List.Item
                actions={
                  index === 0
                    ? [<Tag key="current">{translate('content.revisions.current')}</Tag>]
                    : [
                        <Popconfirm key="restore" title={translate('content.revisions.confirmRestore')} onConfirm={() => restore(revision)}>
                          <Button size="small" data-testid={`restore-${revision.id}`}>{translate('content.revisions.restore')}</Button>
                        </Popconfirm>,
                      ]
                }
              >
                <List.Item.Meta
                  title={
                    <>
                      <Tag color={revision.activity?.action === 'create' ? 'green' : 'blue'}>{translate(`content.revisions.action.${revision.activity?.action ?? 'update'}`)}</Tag>
                      {revision.activity?.timestamp ? format.date(revision.activity.timestamp) : ''}
                    </>
                  }
                  description={
                    <>
                      <Typography.Text type="secondary">{revision.activity?.user?.first_name ?? revision.activity?.user?.email ?? ''}</Typography.Text>
                      <br />
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {Object.keys(revision.delta ?? {}).join(', ')}
                      </Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Drawer>
    </>
  );
}
