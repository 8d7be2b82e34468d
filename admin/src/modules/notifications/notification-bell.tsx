import { BellOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Badge, Button, Drawer, Flex } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { moveNotifications, readNotifications, type NotificationRecord } from './notifications-api.ts';
import { NotificationList } from './notification-list.tsx';

/** How often the unread count is read again while the admin is open (and whenever the window regains focus). */
const REFRESH_MS = 30_000;

/** The header's bell: the unread count, and the latest notifications in a drawer. */
export function NotificationBell() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<{ items: NotificationRecord[]; total: number; loading: boolean }>({ items: [], total: 0, loading: true });

  const refresh = useCallback(async () => {
    try {
      const inbox = await readNotifications('inbox', 20);
      setState({ ...inbox, loading: false });
    } catch {
      // No notifications to read (no permission, signed out): the bell stays quiet.
      setState({ items: [], total: 0, loading: false });
    }
  }, []);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh]);

  const archive = async (notification: NotificationRecord) => {
    await moveNotifications([notification.id], 'archived');
    await refresh();
  };
  const archiveAll = async () => {
    await moveNotifications(state.items.map((notification) => notification.id), 'archived');
    await refresh();
  };

  return (
    <>
      <Badge count={state.total} size="small" offset={[-4, 4]} data-testid="notification-count">
        <Button type="text" icon={<BellOutlined />} aria-label={translate('notifications.open')} onClick={() => { setOpen(true); void refresh(); }} data-testid="notification-bell" />
      </Badge>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={translate('notifications.title')}
        width={420}
        extra={
          <Flex gap={8}>
            {state.items.length > 0 && (
              <Button size="small" onClick={archiveAll} data-testid="notification-archive-all">
                {translate('notifications.archiveAll')}
              </Button>
            )}
            <Button size="small" type="link" onClick={() => { setOpen(false); navigate('/notifications'); }}>
              {translate('notifications.seeAll')}
            </Button>
          </Flex>
        }
      >
        <NotificationList items={state.items} loading={state.loading} onMove={archive} onOpen={() => setOpen(false)} />
      </Drawer>
    </>
  );
}
