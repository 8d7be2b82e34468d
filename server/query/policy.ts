import { ForbiddenError, InvalidQueryError } from '../errors.ts';
import type { CollectionOverview, FieldOverview } from '../schema/overview.ts';
import type { CompileContext } from './context.ts';
import { findField } from './schema-lookup.ts';
import type { ReadPolicy } from './types.ts';

/** The policy of callers without restrictions (admins, the system). */
export const ALLOW_ALL_POLICY: ReadPolicy = Object.freeze({
  itemFilter: () => null,
  allowedFields: () => '*' as const,
});

/** True when the caller may read `field` of `collection`. */
export function canReadField(ctx: CompileContext, collection: string, field: string): boolean {
  const allowed = ctx.policy.allowedFields(collection);
  return allowed === '*' || allowed.has(field);
}

/** True for values that never leave the server in clear (concealed fields and hashes). */
export function isConcealed(field: FieldOverview): boolean {
  return field.concealed || field.type === 'hash';
}

/**
 * The field `name` of `collection` for a use the caller asked for. Unknown fields are an InvalidQueryError,
 * except where the caller's fields are restricted: there unknown and forbidden look alike (ForbiddenError),
 * so field names the caller cannot read do not leak.
 */
export function readableField(ctx: CompileContext, collection: CollectionOverview, name: string, usage: string): FieldOverview {
  const field = findField(collection, name);
  const restricted = ctx.policy.allowedFields(collection.collection) !== '*';
  if (field && canReadField(ctx, collection.collection, name)) return field;
  if (!field && !restricted) {
    throw new InvalidQueryError(`Field "${name}" in ${usage} does not exist in collection "${collection.collection}".`, { field: name });
  }
  throw new ForbiddenError(
    `You don't have permission to access field "${name}" of collection "${collection.collection}" in ${usage}, or it does not exist.`,
    { field: name },
  );
}

/** How a field is used: where (for messages), and whether by a permission rule (`trusted`: no field checks). */
export interface FieldUse {
  trusted: boolean;
  usage: string;
}

/** The field `name` for a use: permission rules see every field; callers only the fields they may read. */
export function fieldFor(ctx: CompileContext, collection: CollectionOverview, name: string, use: FieldUse): FieldOverview {
  if (!use.trusted) return readableField(ctx, collection, name, use.usage);
  const field = findField(collection, name);
  if (!field) throw new InvalidQueryError(`Field "${name}" in ${use.usage} does not exist in collection "${collection.collection}".`, { field: name });
  return field;
}

/**
 * Refuses a concealed field where its value would be compared, ordered or grouped: a 400, as in Directus
 * (issue 31), since the field is known to the caller and only the use of it is wrong.
 */
export function assertNotConcealed(field: FieldOverview, collection: CollectionOverview, usage: string): void {
  if (isConcealed(field)) {
    throw new InvalidQueryError(`Field "${field.field}" of collection "${collection.collection}" is concealed and cannot be used in ${usage}.`, {
      field: field.field,
    });
  }
}
