import { Cron } from 'croner';
import { InvalidPayloadError } from '../errors.ts';
import { operationTypes } from './operations/index.ts';

type Payload = Record<string, unknown>;

export const FLOW_TRIGGERS = ['event', 'schedule', 'webhook', 'manual', 'operation'] as const;
export const FLOW_STATUSES = ['active', 'inactive'] as const;
/** The options of a manual trigger (Directus 10's): app users read them, so nothing else may be stored there. */
const MANUAL_OPTIONS = ['collections', 'location', 'requireSelection', 'requireConfirmation', 'confirmationDescription', 'fields', 'async'];

function fail(field: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new InvalidPayloadError(message, { field, ...extra });
}

function oneOf(field: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string)) fail(field, `"${field}" must be one of: ${allowed.join(', ')}.`, { allowed });
}

/** Checks a tessera_flows write: status, trigger, and the options each trigger needs (Directus 10 shapes). */
export function validateFlowPayload(payload: Payload, mode: 'create' | 'update'): Payload {
  if (mode === 'create' && payload.status === undefined) payload = { ...payload, status: 'active' };
  if ('status' in payload) oneOf('status', payload.status, FLOW_STATUSES);
  if ('trigger' in payload && payload.trigger !== null) oneOf('trigger', payload.trigger, FLOW_TRIGGERS);
  if ('accountability' in payload && payload.accountability !== null) oneOf('accountability', payload.accountability, ['all', 'activity']);
  const options = payload.options;
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) fail('options', '"options" must be an object.');
  const opts = (options ?? {}) as Payload;
  if (payload.trigger === 'event' && 'options' in payload) {
    oneOf('options.type', opts.type, ['filter', 'action']);
    const scopes = Array.isArray(opts.scope) ? opts.scope : [opts.scope];
    for (const scope of scopes) oneOf('options.scope', scope, ['items.create', 'items.update', 'items.delete']);
  }
  if (payload.trigger === 'schedule' && 'options' in payload) {
    const cron = opts.cron;
    try {
      if (typeof cron !== 'string' || cron.trim() === '') throw new Error('empty');
      new Cron(cron, { paused: true }).stop();
    } catch {
      fail('options.cron', `"options.cron" must be a cron expression such as "*/5 * * * * *", not ${JSON.stringify(cron)}.`);
    }
  }
  if (payload.trigger === 'webhook' && 'options' in payload) {
    if (opts.method !== undefined) oneOf('options.method', opts.method, ['GET', 'POST']);
    if (opts.async !== undefined && typeof opts.async !== 'boolean') fail('options.async', '"options.async" must be true or false.');
  }
  if (payload.trigger === 'manual' && 'options' in payload) {
    if (opts.collections !== undefined && !Array.isArray(opts.collections)) fail('options.collections', '"options.collections" must be a list of collection names.');
    // Every app user reads a manual flow's options (its button): only the button's settings belong there.
    for (const key of Object.keys(opts)) if (!MANUAL_OPTIONS.includes(key)) fail(`options.${key}`, `"options.${key}" is not an option of a manual trigger; allowed: ${MANUAL_OPTIONS.join(', ')}.`, { allowed: MANUAL_OPTIONS });
  }
  return payload;
}

/** Checks a tessera_operations write: a known type, options an object. Key uniqueness per flow is checked against the database by the caller. */
export function validateOperationPayload(payload: Payload): Payload {
  if ('type' in payload) oneOf('type', payload.type, operationTypes());
  if ('key' in payload && (typeof payload.key !== 'string' || !/^[A-Za-z0-9_$-]+$/.test(payload.key))) fail('key', '"key" must be letters, digits, _ and -.');
  if ('options' in payload && payload.options !== null && (typeof payload.options !== 'object' || Array.isArray(payload.options))) fail('options', '"options" must be an object.');
  return payload;
}

/**
 * An update that changes operations' key or flow must leave every key unique within its flow: no other
 * operation there has it, and the batch does not give two operations of one flow the same key.
 */
export async function assertOperationKeysUniqueOnUpdate(db: { selectFrom: (table: string) => any }, ids: Array<string | number>, payload: Payload): Promise<void> {
  if (ids.length === 0 || (!('key' in payload) && !('flow' in payload))) return;
  const rows: Array<{ id: string; key: string; flow: string }> = await db.selectFrom('tessera_operations').select(['id', 'key', 'flow']).where('id', 'in', ids).execute();
  const claimed = new Set<string>();
  for (const row of rows) {
    const key = typeof payload.key === 'string' ? payload.key : row.key;
    const flow = typeof payload.flow === 'string' ? payload.flow : row.flow;
    if (claimed.has(`${flow} ${key}`)) fail('key', `"key" "${key}" would be used by two operations of one flow.`);
    claimed.add(`${flow} ${key}`);
    const other = await db.selectFrom('tessera_operations').select('id').where('flow', '=', flow).where('key', '=', key).where('id', 'not in', ids).executeTakeFirst();
    if (other) fail('key', `"key" "${key}" is already used by another operation of this flow.`);
  }
}

/** A new operation's key must not repeat within its flow (its data is stored under that key). */
export async function assertOperationKeyUnique(db: { selectFrom: (table: string) => any }, payload: Payload): Promise<void> {
  if (typeof payload.key !== 'string' || typeof payload.flow !== 'string') return;
  const existing = await db.selectFrom('tessera_operations').select('id').where('flow', '=', payload.flow).where('key', '=', payload.key).executeTakeFirst();
  if (existing) fail('key', `"key" "${payload.key}" is already used by another operation of this flow.`);
}
