import type { Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError } from '../errors.ts';
import type { Filter, ReadPolicy } from '../query/types.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { PermissionCache } from './permission-cache.ts';
import { shareReach, type ShareReach } from './share-reach.ts';
import { permissionKey, type Permission, type PermissionAction, type PermissionSet } from './types.ts';
import { ownValue } from '../own-keys.ts';

/** A filter that matches no row. */
const NOTHING: Filter = Object.freeze({ _or: [] });
const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * Fields holding a copy of another collection's item (revisions), per collection. The read policy hides
 * them from restricted callers, so no nested path, filter or sort reaches them; the items service gives
 * a root read a copy cut down to what the caller may read of that item (services/items/revision-payloads.ts).
 */
export const ITEM_COPY_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze({ tessera_revisions: Object.freeze(['data', 'delta']) });

/** What a share session may read: the shared item and the items it reaches through relations, with its share's role. */
export interface ShareScope {
  role: string | null;
  collection: string;
  item: string;
  reach: ShareReach;
}

/**
 * What one non-admin caller may do: the effective permissions of its role (or the public role), and for
 * a share session only reading the shared item and the items it reaches through relations, nothing else.
 */
export class Access {
  readonly accountability: Accountability;
  readonly #permissions: PermissionSet;
  readonly #share: ShareScope | null;
  readonly #schema: SchemaOverview;

  /** The role's permissions this access judges by (a share narrows them further: see `shared`). */
  get permissions(): PermissionSet {
    return this.#permissions;
  }

  /** Whether this access is a share's, whose reach is per share. */
  get shared(): boolean {
    return this.#share !== null;
  }

  constructor(accountability: Accountability, permissions: PermissionSet, schema: SchemaOverview, share: ShareScope | null = null) {
    this.accountability = accountability;
    this.#permissions = permissions;
    this.#schema = schema;
    this.#share = share;
  }

  /** The caller's permission for an action on a collection, or null. Share sessions only read. */
  permission(collection: string, action: PermissionAction): Permission | null {
    if (this.#share && (action !== 'read' || !this.#share.reach.has(collection))) return null;
    return this.#permissions.get(permissionKey(collection, action)) ?? null;
  }

  /** The permission, or FORBIDDEN (the same answer as for a collection that does not exist). */
  require(collection: string, action: PermissionAction): Permission {
    const permission = this.permission(collection, action);
    // The generic message, word for word the one for a collection that does not exist: no existence oracle.
    if (!permission) throw new ForbiddenError();
    return permission;
  }

  /** This caller with one more permission (replacing its own for that collection and action). */
  withPermission(permission: Permission): Access {
    const permissions = new Map(this.#permissions);
    permissions.set(permissionKey(permission.collection, permission.action), permission);
    return new Access(this.accountability, permissions, this.#schema, this.#share);
  }

  /** Every effective permission, for /permissions/me. */
  all(): Permission[] {
    if (this.#share) return [...this.#permissions.values()].filter((permission) => permission.action === 'read' && this.#share!.reach.has(permission.collection));
    return [...this.#permissions.values()];
  }

  /** The rows of `collection` the action reaches: the permission's item rule (and a share's item). */
  itemFilter(collection: string, action: PermissionAction): Filter | null {
    const permission = this.permission(collection, action);
    if (!permission) return NOTHING;
    const shared = this.#shareFilter(collection);
    if (!shared) return permission.permissions;
    return permission.permissions ? { _and: [shared, permission.permissions] } : shared;
  }

  /** Fields of `collection` the action may see or write. */
  allowedFields(collection: string, action: PermissionAction): '*' | ReadonlySet<string> {
    return this.permission(collection, action)?.fields ?? NO_FIELDS;
  }

  /** The read side as the query compiler takes it: applied at every relational level. */
  readPolicy(): ReadPolicy {
    return { itemFilter: (collection) => this.itemFilter(collection, 'read'), allowedFields: (collection) => this.#readableFields(collection) };
  }

  #readableFields(collection: string): '*' | ReadonlySet<string> {
    const allowed = this.allowedFields(collection, 'read');
    const copies = ownValue(ITEM_COPY_FIELDS, collection);
    if (!copies) return allowed;
    const names = allowed === '*' ? Object.keys(this.#schema.collections[collection]?.fields ?? {}) : [...allowed];
    return new Set(names.filter((field) => !copies.includes(field)));
  }

  #shareFilter(collection: string): Filter | null {
    if (!this.#share) return null;
    const primary = this.#schema.collections[collection]?.primary;
    const keys = this.#share.reach.get(collection);
    return primary && keys && keys.length > 0 ? { [primary]: { _in: [...keys] } } : NOTHING;
  }
}

/** Where a caller's permissions come from. */
export interface AccessSources {
  accountability: Accountability;
  db: Kysely<any>;
  permissions: PermissionCache;
}

/** The caller's Access, or null for administrators and the system, which bypass permissions. */
export async function resolveAccess(sources: AccessSources, schema: SchemaOverview): Promise<Access | null> {
  const { accountability } = sources;
  if (accountability.admin) return null;
  if (accountability.share) {
    const share = await sources.db.selectFrom('tessera_shares').select(['role', 'collection', 'item', 'date_end']).where('id', '=', accountability.share).executeTakeFirst();
    if (!share) throw new ForbiddenError('The share no longer exists.');
    if (share.date_end && new Date(share.date_end).getTime() <= Date.now()) throw new ForbiddenError('This share has expired.');
    const permissions = await sources.permissions.forRole(share.role ?? null, false);
    const reach = await shareReach(sources.db, schema, permissions, share.collection, String(share.item));
    return new Access(accountability, permissions, schema, { role: share.role ?? null, collection: share.collection, item: String(share.item), reach });
  }
  return new Access(accountability, await sources.permissions.forRole(accountability.role, accountability.app), schema);
}
