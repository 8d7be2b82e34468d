import type { Filter } from '../query/types.ts';
import type { PermissionAction } from '../schema/system/constants.ts';

export type { PermissionAction };

/** One effective permission of a role: a stored tessera_permissions row or a SPEC §6 default. */
export interface Permission {
  collection: string;
  action: PermissionAction;
  /** Fields the action may see or touch: every field, or exactly these. */
  fields: '*' | ReadonlySet<string>;
  /** Items the action reaches (merged into the SQL of reads, updates and deletes); null for all. */
  permissions: Filter | null;
  /** Conditions a written payload must meet (create and update); null for none. */
  validation: Filter | null;
  /** Values written when the payload does not give them. */
  presets: Record<string, unknown> | null;
}

/** The effective permissions of one role (or the public), by `collection:action`. */
export type PermissionSet = ReadonlyMap<string, Permission>;

/** The key of a permission in a PermissionSet. */
export function permissionKey(collection: string, action: PermissionAction): string {
  return `${collection}:${action}`;
}
