import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError } from '../errors.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import { resolveDynamicValue } from './dynamic-values.ts';
import type { Permission } from './types.ts';
import { assertValidPayload, type RelatedKeyOf, type ValidationMode } from './validate-payload.ts';

type Payload = Record<string, unknown>;

/** FORBIDDEN naming the first field the permission does not let the caller write. */
export function assertWritableFields(permission: Permission, collection: CollectionOverview, fields: Iterable<string>): void {
  if (permission.fields === '*') return;
  for (const field of fields) {
    if (!permission.fields.has(field)) {
      throw new ForbiddenError(`You don't have permission to ${permission.action} field "${field}" of "${collection.collection}".`, { field });
    }
  }
}

/**
 * A payload as a create or update permission allows it: every field it sends must be permitted, the
 * permission's presets fill what it leaves out (`$CURRENT_USER`, `$CURRENT_ROLE` and `$NOW` resolved), and
 * the result must meet the validation rule (400 FAILED_VALIDATION naming the field).
 */
export function applyWritePermission(permission: Permission, collection: CollectionOverview, payload: Payload, mode: ValidationMode, accountability: Accountability, keyOf?: RelatedKeyOf): Payload {
  assertWritableFields(permission, collection, Object.keys(payload));
  const merged: Payload = {};
  if (permission.presets) {
    for (const [field, value] of Object.entries(permission.presets)) merged[field] = resolveDynamicValue(value, accountability);
  }
  Object.assign(merged, payload);
  assertValidPayload(permission.validation, merged, mode, accountability, keyOf);
  return merged;
}
