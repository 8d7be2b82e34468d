import { InvalidPayloadError } from '../../errors.ts';
import { SERVER_MANAGED_FIELDS } from '../../files/file-fields.ts';

type Payload = Record<string, unknown>;

/**
 * Columns only the server writes, per collection. tessera_files' describe the stored content (where it
 * is, its size, type and metadata, who uploaded it): a forged filename_disk would make a row serve, and
 * delete, another file's content.
 */
const SERVER_MANAGED: Readonly<Record<string, ReadonlySet<string>>> = {
  tessera_files: new Set<string>(SERVER_MANAGED_FIELDS),
};

/** 400 naming the first server-managed field of `collection` the payload sends. */
export function assertNoServerManagedFields(collection: string, payload: Payload): void {
  const managed = SERVER_MANAGED[collection];
  if (!managed) return;
  for (const field of Object.keys(payload)) {
    if (managed.has(field)) throw new InvalidPayloadError(`Field "${field}" of "${collection}" is set by the server from the stored content and can't be written.`, { field });
  }
}

/** Whether the server alone writes `field` of `collection`. */
export function isServerManaged(collection: string, field: string): boolean {
  return SERVER_MANAGED[collection]?.has(field) ?? false;
}
