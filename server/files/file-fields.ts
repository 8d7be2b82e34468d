import { InvalidPayloadError } from '../errors.ts';
import type { Access } from '../permissions/access.ts';
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

/**
 * Multipart fields arrive as text: numbers, booleans and JSON become values of their field's type, and
 * an empty value means null. Unknown fields are left for the items service to refuse by name.
 */
export function castFormFields(collection: CollectionOverview, fields: Record<string, string>): Record<string, unknown> {
  // Null-prototype: a form field named `__proto__` stays a field (refused by name), not the payload's prototype.
  const payload: Record<string, unknown> = Object.create(null);
  for (const [name, text] of Object.entries(fields)) {
    const field = collection.fields[name];
    if (!field || text === '' ) {
      payload[name] = text === '' && field ? null : text;
      continue;
    }
    switch (field.type) {
      case 'integer':
      case 'bigInteger':
      case 'float':
      case 'decimal':
        payload[name] = /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
        break;
      case 'boolean':
        payload[name] = text === 'true' ? true : text === 'false' ? false : text;
        break;
      case 'json':
        payload[name] = parseJson(name, text);
        break;
      case 'csv':
        payload[name] = text.trim().startsWith('[') ? parseJson(name, text) : text;
        break;
      default:
        payload[name] = text;
    }
  }
  return payload;
}

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidPayloadError(`Field "${field}" must be JSON.`, { field });
  }
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
