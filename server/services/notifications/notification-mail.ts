import type { AppContext } from '../../app-context.ts';
import { readBranding } from '../../mail/branding.ts';

/** Where a notification points in the admin: the item when there is one, else the inbox. */
export function notificationUrl(publicUrl: string, collection: string | null, item: string | null): string {
  if (collection && item) return `${publicUrl}/admin/content/${encodeURIComponent(collection)}/${encodeURIComponent(item)}`;
  return `${publicUrl}/admin/notifications`;
}

/**
 * E-mails committed notifications to recipients with email_notifications on. Runs after the commit
 * (mailer.sendLater): a failed send is logged and never undoes the notification.
 */
export function mailNotifications(app: AppContext, ids: (string | number)[]): void {
  if (ids.length === 0) return;
  app.mailer.sendLater(async () => {
    const db = app.database.kysely();
    const rows = await db
      .selectFrom('tessera_notifications as n')
      .innerJoin('tessera_users as u', 'u.id', 'n.recipient')
      .select(['n.subject', 'n.message', 'n.collection', 'n.item', 'u.email'])
      .where('n.id', 'in', ids.map(Number))
      .where('u.email_notifications', '=', true)
      .where('u.email', 'is not', null)
      .where('u.status', '=', 'active')
      .execute();
    if (rows.length === 0) return;
    const brand = await readBranding(db, app.config.server.publicUrl);
    // marked (Markdown) loads with the first notification e-mail: every process builds this context, the CLI too.
    const { notificationMail } = await import('../../mail/templates/notification.ts');
    for (const row of rows) {
      const url = notificationUrl(app.config.server.publicUrl, row.collection, row.item);
      await app.mailer.send(notificationMail(brand, { to: row.email, subject: row.subject, message: row.message, url }));
    }
  });
}

/**
 * Notifications written through the item routes (POST /notifications by admins, flows later) are
 * e-mailed once their write commits. Returns how to unregister (the app context's dispose).
 */
export function registerNotificationMail(app: AppContext): () => void {
  return app.events.onAction('tessera_notifications.items.create', ({ keys }) => mailNotifications(app, keys as (string | number)[]));
}
