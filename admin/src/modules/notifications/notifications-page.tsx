import { useTranslate } from '@refinedev/core';
import { Card, Pagination, Segmented } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { PageHeader } from '../shared/page-header.tsx';
import { moveNotifications, readNotifications, type NotificationRecord } from './notifications-api.ts';
import { NotificationList } from './notification-list.tsx';

const PAGE_SIZE = 25;

/** The inbox and the archive of the signed-in user's notifications (the e-mails link here). */
export default function NotificationsPage() {
  const translate = useTranslate();
  const [box, setBox] = useState<'inbox' | 'archived'>('inbox');
  const [page, setPage] = useState(1);
  const [state, setState] = useState<{ items: NotificationRecord[]; total: number; loading: boolean }>({ items: [], total: 0, loading: true });

  const load = useCallback(async () => {
    setState((current) => ({ ...current, loading: true }));
    const result = await readNotifications(box, PAGE_SIZE, page).catch(() => ({ items: [], total: 0 }));
    setState({ ...result, loading: false });
  }, [box, page]);
  useEffect(() => {
    void load();
  }, [load]);

  const move = async (notification: NotificationRecord) => {
    await moveNotifications([notification.id], notification.status === 'archived' ? 'inbox' : 'archived');
    await load();
  };

  return (
    <>
      <PageHeader title={translate('notifications.title')} testId="notifications-title" />
      <Card size="small">
        <Segmented
          value={box}
          onChange={(next) => {
            setBox(next as 'inbox' | 'archived');
            setPage(1);
          }}
          options={[
            { value: 'inbox', label: translate('notifications.inbox') },
            { value: 'archived', label: translate('notifications.archived') },
          ]}
          style={{ marginBottom: 12 }}
          data-testid="notifications-box"
        />
        <NotificationList items={state.items} loading={state.loading} onMove={move} />
        {state.total > PAGE_SIZE && <Pagination current={page} pageSize={PAGE_SIZE} total={state.total} onChange={setPage} style={{ marginTop: 12 }} />}
      </Card>
    </>
  );
}
