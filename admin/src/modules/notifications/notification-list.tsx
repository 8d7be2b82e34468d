import { InboxOutlined, RollbackOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, List, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { MentionText, useMentionNames } from '../../content/items/mention-text.tsx';
import { useFormat } from '../../app/use-format.ts';
import { itemPath, senderName, type NotificationRecord } from './notifications-api.ts';

/** Notifications with their sender and time, a link to the item, and archive (or back to the inbox). */
export function NotificationList({ items, loading, onMove, onOpen }: { items: NotificationRecord[]; loading: boolean; onMove(notification: NotificationRecord): void; onOpen?(): void }) {
  const translate = useTranslate();
  const format = useFormat();
  const navigate = useNavigate();
  // Notifications written before mentions were stored as names still hold `@<id>`.
  const mentionNames = useMentionNames(useMemo(() => items.map((notification) => notification.message), [items]));
  return (
    <List
      loading={loading}
      dataSource={items}
      locale={{ emptyText: translate('notifications.empty') }}
      renderItem={(notification) => {
        const path = itemPath(notification);
        const archived = notification.status === 'archived';
        const sender = senderName(notification);
        return (
          <List.Item
            data-testid={`notification-${notification.id}`}
            actions={[
              <Tooltip key="move" title={translate(archived ? 'notifications.unarchive' : 'notifications.archive')}>
                <Button type="text" size="small" icon={archived ? <RollbackOutlined /> : <InboxOutlined />} aria-label={translate(archived ? 'notifications.unarchive' : 'notifications.archive')} onClick={() => onMove(notification)} data-testid={`notification-move-${notification.id}`} />
              </Tooltip>,
            ]}
          >
            <List.Item.Meta
              title={
                path ? (
                  <Typography.Link
                    onClick={() => {
                      navigate(path);
                      onOpen?.();
                    }}
                    data-testid={`notification-open-${notification.id}`}
                  >
                    {notification.subject}
                  </Typography.Link>
                ) : (
                  notification.subject
                )
              }
              description={
                <>
                  {notification.message && <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 4 }}><MentionText text={notification.message} names={mentionNames} /></Typography.Paragraph>}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[sender, format.date(notification.timestamp)].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        );
      }}
    />
  );
}
