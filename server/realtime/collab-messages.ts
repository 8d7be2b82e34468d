import { InvalidPayloadError } from '../errors.ts';

/** Avatar colours a member gets (Directus's palette, so its clients draw them alike). */
export const COLLAB_COLORS = ['purple', 'pink', 'blue', 'green', 'yellow', 'orange', 'red'] as const;
export type CollabColor = (typeof COLLAB_COLORS)[number];

/** One connection in a room, as other members see it (`name` is Tessera's addition to Directus's shape). */
export interface CollabMember {
  /** The connection's id: a user with two tabs open is two members. */
  connection: string;
  user: string;
  name: string | null;
  color: CollabColor;
}

/** A `type: "collab"` message a client sends (Directus's actions, plus `watch`/`unwatch` for list presence). */
export type CollabRequest =
  | { action: 'join'; collection: string; item: string | null; version: string | null; color: CollabColor | null }
  | { action: 'leave'; room: string | null }
  | { action: 'focus'; room: string; field: string | null }
  | { action: 'watch'; collection: string }
  | { action: 'unwatch'; collection: string | null };

/** Directus's actions for sharing unsaved edits, which Tessera does not do (docs/realtime.md). */
const UNSUPPORTED = new Set(['update', 'updateAll', 'discard']);

function requiredString(message: Record<string, unknown>, field: string): string {
  const value = message[field];
  if (typeof value !== 'string' || value === '') throw new InvalidPayloadError(`"${field}" is required.`, { field });
  return value;
}

function optionalString(message: Record<string, unknown>, field: string): string | null {
  const value = message[field];
  if (value === undefined || value === null) return null;
  // Directus's join sends the item key as a string; a number is taken too (REST paths make no difference).
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value === '') throw new InvalidPayloadError(`"${field}" must be a string or null.`, { field });
  return value;
}

/** Checks a client's collab message; a bad one is INVALID_PAYLOAD naming the field. */
export function parseCollabRequest(message: Record<string, unknown>): CollabRequest {
  const action = message.action;
  if (typeof action === 'string' && UNSUPPORTED.has(action)) {
    throw new InvalidPayloadError(`"action": "${action}" (sharing unsaved edits) is not supported; save the item instead.`, { field: 'action' });
  }
  switch (action) {
    case 'join': {
      const color = message.color;
      if (color !== undefined && color !== null && !COLLAB_COLORS.includes(color as CollabColor)) {
        throw new InvalidPayloadError(`"color" must be one of ${COLLAB_COLORS.join(', ')}.`, { field: 'color' });
      }
      return { action, collection: requiredString(message, 'collection'), item: optionalString(message, 'item'), version: optionalString(message, 'version'), color: (color as CollabColor | undefined) ?? null };
    }
    case 'leave':
      return { action, room: optionalString(message, 'room') };
    case 'focus': {
      const field = message.field;
      if (field !== null && field !== undefined && (typeof field !== 'string' || field === '')) throw new InvalidPayloadError('"field" must be a field name or null.', { field: 'field' });
      return { action, room: requiredString(message, 'room'), field: (field as string | undefined) ?? null };
    }
    case 'watch':
      return { action, collection: requiredString(message, 'collection') };
    case 'unwatch':
      return { action, collection: optionalString(message, 'collection') };
    default:
      throw new InvalidPayloadError('"action" must be join, leave, focus, watch or unwatch.', { field: 'action' });
  }
}
