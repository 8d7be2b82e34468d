import { InvalidPayloadError } from '../errors.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { WEBHOOK_ACTIONS, WEBHOOK_METHODS, WEBHOOK_STATUSES } from '../schema/system/constants.ts';

type Payload = Record<string, unknown>;

function fail(field: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new InvalidPayloadError(message, { field, ...extra });
}

/** A csv field's value as a list: an array of strings, or a comma-separated string. */
function asList(field: string, value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : fail(field, `"${field}" must be a list of strings.`);
  return list.map((item) => (typeof item === 'string' ? item.trim() : fail(field, `"${field}" must be a list of strings.`))).filter(Boolean);
}

function oneOf(field: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string)) fail(field, `"${field}" must be one of: ${allowed.join(', ')}.`, { allowed });
}

/**
 * Checks every value a webhook write carries (SPEC §3, §9): the error names the field and the allowed
 * values. A create must name url, actions and collections; an update checks only what it changes.
 */
export function validateWebhookPayload(payload: Payload, mode: 'create' | 'update', schema: SchemaOverview): Payload {
  const result = { ...payload };
  if (mode === 'create') for (const field of ['name', 'url', 'actions', 'collections']) if (payload[field] === undefined || payload[field] === null) fail(field, `"${field}" is required.`);
  if ('name' in payload && (typeof payload.name !== 'string' || payload.name.trim() === '')) fail('name', '"name" must be a non-empty string.');
  if ('method' in payload) oneOf('method', payload.method, WEBHOOK_METHODS);
  if ('status' in payload) oneOf('status', payload.status, WEBHOOK_STATUSES);
  if ('data' in payload && typeof payload.data !== 'boolean') fail('data', '"data" must be true or false.');
  if ('url' in payload) {
    let url: URL | null = null;
    try {
      url = typeof payload.url === 'string' ? new URL(payload.url) : null;
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail('url', '"url" must be an absolute http:// or https:// URL.');
  }
  if ('actions' in payload) {
    const actions = asList('actions', payload.actions);
    if (actions.length === 0) fail('actions', `"actions" must list at least one of: ${WEBHOOK_ACTIONS.join(', ')}.`, { allowed: WEBHOOK_ACTIONS });
    for (const action of actions) oneOf('actions', action, WEBHOOK_ACTIONS);
    result.actions = [...new Set(actions)];
  }
  if ('collections' in payload) {
    const collections = asList('collections', payload.collections);
    if (collections.length === 0) fail('collections', '"collections" must name at least one collection.');
    for (const name of collections) if (!schema.collections[name]) fail('collections', `"collections" names "${name}", which is not a collection.`);
    result.collections = [...new Set(collections)];
  }
  if ('headers' in payload && payload.headers !== null) {
    if (!Array.isArray(payload.headers)) fail('headers', '"headers" must be a list of { header, value }.');
    for (const entry of payload.headers) {
      const { header, value } = (entry ?? {}) as Payload;
      if (typeof entry !== 'object' || typeof header !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) fail('headers', '"headers" must hold { header, value } objects whose header is a valid HTTP header name.');
      if (typeof value !== 'string' || /[\r\n]/.test(value)) fail('headers', `"headers" value of "${header}" must be a string without line breaks.`);
    }
  }
  return result;
}
