import { InvalidPayloadError } from '../../errors.ts';

export const NOTIFICATION_STATUSES = ['inbox', 'archived'] as const;

/** 400 naming `status` unless it is absent or one of inbox / archived (the tessera_notifications rule, server/builtins.ts). */
export function assertNotificationStatus(payload: Record<string, unknown>): void {
  if (payload.status === undefined) return;
  if (!NOTIFICATION_STATUSES.includes(payload.status as (typeof NOTIFICATION_STATUSES)[number])) {
    throw new InvalidPayloadError(`"status" must be one of: ${NOTIFICATION_STATUSES.join(', ')}.`, { field: 'status', allowed: [...NOTIFICATION_STATUSES] });
  }
}
