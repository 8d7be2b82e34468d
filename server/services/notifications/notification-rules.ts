import { events } from '../../events/event-bus.ts';
import { InvalidPayloadError } from '../../errors.ts';

export const NOTIFICATION_STATUSES = ['inbox', 'archived'] as const;

/** 400 naming `status` unless it is absent or one of inbox / archived. */
export function assertNotificationStatus(payload: Record<string, unknown>): void {
  if (payload.status === undefined) return;
  if (!NOTIFICATION_STATUSES.includes(payload.status as (typeof NOTIFICATION_STATUSES)[number])) {
    throw new InvalidPayloadError(`"status" must be one of: ${NOTIFICATION_STATUSES.join(', ')}.`, { field: 'status', allowed: [...NOTIFICATION_STATUSES] });
  }
}

let registered = false;

/** Validates every write to tessera_notifications (any route, any caller); registered once per process. */
export function registerNotificationRules(): void {
  if (registered) return;
  registered = true;
  for (const event of ['tessera_notifications.items.create', 'tessera_notifications.items.update'] as const) {
    events.onFilter(event, (payload) => assertNotificationStatus(payload));
  }
}
