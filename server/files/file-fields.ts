import { InvalidPayloadError } from '../errors.ts';
import type { Access } from '../permissions/access.ts';
import { fieldTypeTraits, type ValueKind } from '../schema/field-type-table.ts';
import type { CollectionOverview } from '../schema/overview.ts';

/** Columns of tessera_files that only the server writes: they describe the stored content. */
export const SERVER_MANAGED_FIELDS = ['storage', 'filename_disk', 'type', 'filesize', 'width', 'height', 'duration', 'charset', 'metadata', 'embed', 'uploaded_by', 'uploaded_on', 'modified_by', 'modified_on'] as const;

const SERVER_MANAGED = new Set<string>(SERVER_MANAGED_FIELDS);

/** 400 naming the first server-managed field a client tried to write (the content decides them). */
export function assertClientFields(payload: Record<string, unknown>): void {
  for (const field of Object.keys(payload)) {
    if (SERVER_MANAGED.has(field)) throw new InvalidPayloadError(`Field "${field}" is set from the file's content and can't be written.`, { field });
  }
}

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidPayloadError(`Field "${field}" must be JSON.`, { field });
  }
}

const asText = (text: string): unknown => text;
const asNumber = (text: string): unknown => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/** A multipart field's text as a value of each value kind (server/schema/field-type-table.ts). */
const FROM_FORM = {
  integer: asNumber,
  bigInteger: asNumber,
  float: asNumber,
  decimal: asNumber,
  boolean: (text) => (text === 'true' ? true : text === 'false' ? false : text),
  json: (text, name) => parseJson(name, text),
  csv: (text, name) => (text.trim().startsWith('[') ? parseJson(name, text) : text),
  string: asText,
  text: asText,
  hash: asText,
  date: asText,
  time: asText,
  dateTime: asText,
  uuid: asText,
  geometry: asText,
  alias: asText,
} satisfies Record<ValueKind, (text: string, name: string) => unknown>;

/**
 * Multipart fields arrive as text: numbers, booleans and JSON become values of their field's type, and
 * an empty value means null. Unknown fields are left for the items service to refuse by name.
 */
export function castFormFields(collection: CollectionOverview, fields: Record<string, string>): Record<string, unknown> {
  // Null-prototype: a form field named `__proto__` stays a field (refused by name), not the payload's prototype.
  const payload: Record<string, unknown> = Object.create(null);
  for (const [name, text] of Object.entries(fields)) {
    const field = collection.fields[name];
    if (!field || text === '') payload[name] = text === '' && field ? null : text;
    else payload[name] = FROM_FORM[fieldTypeTraits(field.type).value](text, name);
  }
  return payload;
}

/**
 * The caller's access with its tessera_files create and update permissions widened to the id, the
 * server-managed columns and `serverFilled` (defaults the server chose in this call, such as the title
 * from the file name): a caller allowed to upload or replace a file may not choose those values, but the
 * server writes them for it. Item rules, validation and presets stay the caller's.
 */
export function withServerColumns(access: Access | null, serverFilled: readonly string[] = []): Access | null {
  if (!access) return null;
  let widened = access;
  for (const action of ['create', 'update'] as const) {
    const permission = access.permission('tessera_files', action);
    if (!permission || permission.fields === '*') continue;
    widened = widened.withPermission({ ...permission, fields: new Set([...permission.fields, 'id', ...SERVER_MANAGED_FIELDS, ...serverFilled]) });
  }
  return widened;
}
