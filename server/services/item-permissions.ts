import { ForbiddenError } from '../errors.ts';
import { readByQuery } from '../query/run-query.ts';
import type { Filter } from '../query/types.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { ServiceContext } from './service-context.ts';
import { normalizeKeys } from './items/item-keys.ts';
import { resolveAccess, type Access } from '../permissions/access.ts';
import type { PermissionAction } from '../permissions/types.ts';

/** What the caller may do with one item, in Directus's `/permissions/me/:collection/:pk?` shape. */
export interface ItemPermissions {
  update: { access: boolean; presets?: Record<string, unknown> | null; fields?: string[] };
  delete: { access: boolean };
  share: { access: boolean };
}

/** Whether the action's rule reaches the item (any item of the collection when no key is given). */
async function reaches(context: ServiceContext, schema: SchemaOverview, access: Access, collection: string, action: PermissionAction, key: string | undefined): Promise<boolean> {
  const permission = access.permission(collection, action);
  if (!permission) return false;
  const overview = schema.collections[collection]!;
  if (key === undefined && (action === 'create' || !overview.singleton)) return true;
  const conditions: Filter[] = [];
  const rule = access.itemFilter(collection, action);
  if (rule) conditions.push(rule);
  if (key !== undefined) {
    try {
      conditions.push({ [overview.primary]: { _eq: normalizeKeys(overview, [key])[0]! } });
    } catch {
      return false;
    }
  }
  const query = { fields: [overview.primary], filter: { _and: conditions }, limit: 1 };
  return (await readByQuery(context.db, schema, collection, query, { accountability: context.accountability })).data.length > 0;
}

/**
 * Whether the signed-in caller may update, delete and share the item `key` of `collection` (or, without a
 * key, the singleton's item): each action's permission and item rule, as Directus's route answers it. A
 * singleton without its item yet is updated by creating it, so `create` decides there, and the answer
 * carries that permission's presets and fields for the form. Signed-out callers and unknown collections
 * are FORBIDDEN.
 */
export async function itemPermissions(context: ServiceContext, schema: SchemaOverview, collection: string, key: string | undefined): Promise<ItemPermissions> {
  if (!context.accountability.user) throw new ForbiddenError();
  const overview = schema.collections[collection];
  if (!overview?.table) throw new ForbiddenError();
  if (context.accountability.admin) return { update: { access: true }, delete: { access: true }, share: { access: true } };
  const access = await resolveAccess(context, schema);
  if (!access) return { update: { access: true }, delete: { access: true }, share: { access: true } };
  let updateAction: PermissionAction = 'update';
  if (overview.singleton) {
    const existing = await readByQuery(context.db, schema, collection, { fields: [overview.primary], limit: 1 }, { accountability: context.accountability });
    if (existing.data.length === 0) updateAction = 'create';
  }
  const [update, remove, share] = await Promise.all([
    reaches(context, schema, access, collection, updateAction, key),
    reaches(context, schema, access, collection, 'delete', key),
    reaches(context, schema, access, collection, 'share', key),
  ]);
  const result: ItemPermissions = { update: { access: update }, delete: { access: remove }, share: { access: share } };
  if (overview.singleton && update) {
    const permission = access.permission(collection, updateAction)!;
    result.update.presets = permission.presets ?? {};
    result.update.fields = permission.fields === '*' ? ['*'] : [...permission.fields].sort();
  }
  return result;
}
