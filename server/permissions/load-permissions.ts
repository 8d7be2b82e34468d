import type { Kysely } from 'kysely';
import type { Filter } from '../query/types.ts';
import { PERMISSION_ACTIONS } from '../schema/system/constants.ts';
import { APP_DEFAULT_PERMISSIONS } from './default-permissions.ts';
import { permissionKey, type Permission, type PermissionAction, type PermissionSet } from './types.ts';

interface PermissionRow {
  collection: string;
  action: string;
  fields: string | null;
  permissions: unknown;
  validation: unknown;
  presets: unknown;
}

/** `*` (anywhere in the list) means every field; null or empty means none. */
export function parseFieldList(fields: string | readonly string[] | null): '*' | ReadonlySet<string> {
  const list = typeof fields === 'string' ? fields.split(',') : (fields ?? []);
  const names = list.map((name) => name.trim()).filter(Boolean);
  return names.includes('*') ? '*' : new Set(names);
}

function objectOrNull<T>(value: unknown): T | null {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length > 0 ? (parsed as T) : null;
}

/** A stored row as an effective permission. */
export function toPermission(row: PermissionRow): Permission {
  return {
    collection: row.collection,
    action: row.action as PermissionAction,
    fields: parseFieldList(row.fields),
    permissions: objectOrNull<Filter>(row.permissions),
    validation: objectOrNull<Filter>(row.validation),
    presets: objectOrNull<Record<string, unknown>>(row.presets),
  };
}

/**
 * The effective permissions of a role (null: the public role): its stored rows, plus SPEC §6's defaults
 * when it has app access. A stored row replaces the default for its collection and action.
 */
export async function loadPermissions(db: Kysely<any>, role: string | null, appAccess: boolean): Promise<PermissionSet> {
  const rows: PermissionRow[] = await db
    .selectFrom('tessera_permissions')
    .select(['collection', 'action', 'fields', 'permissions', 'validation', 'presets'])
    .where('role', role === null ? 'is' : '=', role)
    .where('action', 'in', [...PERMISSION_ACTIONS])
    .orderBy('id')
    .execute();
  const set = new Map<string, Permission>();
  if (appAccess) for (const permission of APP_DEFAULT_PERMISSIONS) set.set(permissionKey(permission.collection, permission.action), permission);
  for (const row of rows) set.set(permissionKey(row.collection, row.action as PermissionAction), toPermission(row));
  return set;
}
