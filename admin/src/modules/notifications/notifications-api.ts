import { apiRequest } from '../../providers/http-client.ts';

/** A notification as the inbox shows it (SPEC §3 tessera_notifications). */
export interface NotificationRecord {
  id: number;
  timestamp: string | null;
  status: 'inbox' | 'archived';
  subject: string;
  message: string | null;
  collection: string | null;
  item: string | null;
  sender: { id: string; first_name: string | null; last_name: string | null; email: string | null } | null;
}

const FIELDS = 'id,timestamp,status,subject,message,collection,item,sender.id,sender.first_name,sender.last_name,sender.email';

/** The signed-in user's notifications in one box, newest first, with how many there are. */
export async function readNotifications(status: 'inbox' | 'archived', limit: number, page = 1): Promise<{ items: NotificationRecord[]; total: number }> {
  const body = await apiRequest<{ data: NotificationRecord[]; meta?: { filter_count?: number } }>('/notifications', {
    query: { fields: FIELDS, filter: { recipient: { _eq: '$CURRENT_USER' }, status: { _eq: status } }, sort: '-timestamp,-id', limit, page, meta: 'filter_count' },
  });
  return { items: body?.data ?? [], total: body?.meta?.filter_count ?? 0 };
}

/** Moves notifications to the archive, or back to the inbox: one request, one transaction. */
export async function moveNotifications(ids: number[], status: 'inbox' | 'archived'): Promise<void> {
  if (ids.length === 0) return;
  await apiRequest('/notifications', { method: 'PATCH', body: { keys: ids, data: { status } }, query: { fields: 'id' } });
}

/** Who sent it, for the list. */
export function senderName(notification: NotificationRecord): string | null {
  const sender = notification.sender;
  if (!sender) return null;
  return [sender.first_name, sender.last_name].filter(Boolean).join(' ') || sender.email;
}

/** Where the notification's item opens in the admin, when it names one. */
export function itemPath(notification: NotificationRecord): string | null {
  if (!notification.collection || notification.item === null || notification.item === undefined) return null;
  return `/content/${encodeURIComponent(notification.collection)}/${encodeURIComponent(String(notification.item))}`;
}
