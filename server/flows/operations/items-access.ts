import type { Accountability } from '../../auth/accountability.ts';
import { publicAccountability, systemAccountability } from '../../auth/accountability.ts';
import { ItemsService } from '../../services/items/items-service.ts';
import type { OperationContext } from '../flow-types.ts';

/** options.permissions: `$trigger` (the caller), `$public`, `$full`, or a role id. */
function accountabilityFor(permissions: unknown, context: OperationContext): Accountability {
  if (permissions === '$full') return systemAccountability();
  if (permissions === '$public' || permissions === undefined || permissions === null) return publicAccountability({ ip: null, userAgent: null, origin: null });
  if (permissions === '$trigger') return context.accountability ?? publicAccountability({ ip: null, userAgent: null, origin: null });
  return { ...publicAccountability({ ip: null, userAgent: null, origin: null }), role: String(permissions), app: true };
}

/** An ItemsService on options.collection with the accountability options.permissions asks for. */
export async function itemsServiceFor(options: Record<string, unknown>, context: OperationContext): Promise<ItemsService> {
  const schema = await context.app.schema.get();
  if (typeof options.collection !== 'string') throw new Error('"collection" is required.');
  const transaction = context.transaction;
  const services = context.app.servicesContext(accountabilityFor(options.permissions, context), transaction?.db);
  // In a filter flow the item joins the write's transaction and queues its actions on the write's list.
  return new ItemsService(options.collection, { ...services, schema, ...(transaction ? { written: transaction.written ?? new Set(), pendingActions: transaction.pendingActions } : {}) });
}

/**
 * options.key as a list of keys (one key or a list), or null when the operation has no `key` option and
 * acts on its `query`. A `key` option that renders to nothing (null, "", [], a placeholder that finds
 * nothing) is an empty list: the operation acts on no item, never on the whole collection.
 */
export function keysOf(options: Record<string, unknown>): Array<string | number> | null {
  if (!Object.hasOwn(options, 'key')) return null;
  const key = options.key;
  if (key === undefined || key === null || key === '') return [];
  return (Array.isArray(key) ? key : [key]) as Array<string | number>;
}

export function asObject(value: unknown): unknown {
  return typeof value === 'string' && value.trim().startsWith('{') || typeof value === 'string' && value.trim().startsWith('[') ? JSON.parse(value) : value;
}
