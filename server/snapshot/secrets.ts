import { InvalidPayloadError } from '../errors.ts';
import { isSecretKeyName } from '../secret-key-names.ts';
import type { SnapshotDocument, SnapshotRow } from './types.ts';

/** Option keys whose values are credentials. */

/** A value that stands for an environment variable: `${env:NAME}`. */
const REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The variable a reference names, or null for any other value. */
export function referencedVariable(value: unknown): string | null {
  return typeof value === 'string' ? (REFERENCE.exec(value)?.[1] ?? null) : null;
}

/** `TESSERA_<PARTS>`: upper case, anything but letters and digits as one underscore. */
export function secretVariableName(parts: string[]): string {
  const name = ['TESSERA', ...parts]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return name;
}

const reference = (name: string) => `\${env:${name}}`;

/** Replaces credentials inside flow or operation options (keys such as token, password, Authorization headers). */
function maskOptions(value: unknown, prefix: string[]): unknown {
  // List positions are left out of the name: the header name (or key) already tells entries apart.
  if (Array.isArray(value)) return value.map((item) => maskOptions(item, prefix));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  // A header list entry: { header: 'Authorization', value: '…' }.
  if (typeof object.header === 'string' && typeof object.value === 'string' && isSecretKeyName(object.header) && object.value !== '' && !referencedVariable(object.value)) {
    return { ...object, value: reference(secretVariableName([...prefix, object.header])) };
  }
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    if (typeof item === 'string' && item !== '' && isSecretKeyName(key) && !referencedVariable(item)) result[key] = reference(secretVariableName([...prefix, key]));
    else result[key] = maskOptions(item, [...prefix, key]);
  }
  return result;
}

/**
 * The document with every secret replaced by an `${env:NAME}` reference: settings.mapbox_key, credentials
 * in flow and operation options, and credential headers of webhooks. Names derive from where the secret
 * sits (TESSERA_SETTINGS_MAPBOX_KEY, TESSERA_FLOW_<flow>_<key>, TESSERA_WEBHOOK_<name>_<header>…).
 */
export function maskSecrets<T extends SnapshotDocument>(document: T): T {
  const masked: T = { ...document };
  if (document.settings && typeof document.settings.mapbox_key === 'string' && document.settings.mapbox_key !== '' && !referencedVariable(document.settings.mapbox_key)) {
    masked.settings = { ...document.settings, mapbox_key: reference('TESSERA_SETTINGS_MAPBOX_KEY') };
  }
  if (document.flows) {
    masked.flows = document.flows.map((flow) => ({ ...flow, options: maskOptions(flow.options, ['FLOW', String(flow.name)]) }));
  }
  if (document.operations) {
    const flowNames = new Map((document.flows ?? []).map((flow) => [flow.id, String(flow.name)]));
    masked.operations = document.operations.map((operation) => ({
      ...operation,
      options: maskOptions(operation.options, ['FLOW', flowNames.get(operation.flow) ?? String(operation.flow), String(operation.key)]),
    }));
  }
  if (document.webhooks) {
    masked.webhooks = document.webhooks.map((webhook) => ({ ...webhook, headers: maskOptions(webhook.headers, ['WEBHOOK', String(webhook.name)]) }));
  }
  return masked;
}

/** Replaces references in a JSON value; records what is missing, with where it was found. */
function resolveValue(value: unknown, env: NodeJS.ProcessEnv, path: string, missing: string[]): unknown {
  const name = referencedVariable(value);
  if (name) {
    const resolved = env[name];
    if (resolved === undefined) {
      missing.push(`${name} (${path})`);
      return value;
    }
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item, index) => resolveValue(item, env, `${path}[${index}]`, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveValue(item, env, `${path}.${key}`, missing)]));
  }
  return value;
}

/** The result of resolving references: the document, and the variables that were not set. */
export interface ResolvedSecrets<T> {
  document: T;
  missing: string[];
}

/**
 * Replaces `${env:NAME}` references in the configuration sections with the variables' values. With
 * `strict`, a missing variable fails with one error naming all of them; otherwise the reference is kept
 * (diff then treats it as unknown and equal to whatever the database holds).
 */
export function resolveSecrets<T extends SnapshotDocument>(document: T, env: NodeJS.ProcessEnv, options: { strict: boolean }): ResolvedSecrets<T> {
  const missing: string[] = [];
  const resolved: T = { ...document };
  for (const section of ['settings', 'flows', 'operations', 'webhooks', 'roles', 'permissions', 'presets', 'dashboards', 'panels', 'translations', 'folders'] as const) {
    if (document[section] === undefined) continue;
    (resolved as Record<string, unknown>)[section] = resolveValue(document[section], env, section, missing) as SnapshotRow;
  }
  if (options.strict && missing.length > 0) {
    throw new InvalidPayloadError(`The snapshot references environment variables that are not set: ${missing.join(', ')}.`, { field: 'env', missing });
  }
  return { document: resolved, missing };
}
