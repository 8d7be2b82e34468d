import type { Kysely } from 'kysely';
import { loadPermissions } from './load-permissions.ts';
import type { PermissionSet } from './types.ts';

/** Effective permissions per role, read once and kept until permissions, roles or the schema change. */
export interface PermissionCache {
  /** The permissions of `role` (null: the public), with the app defaults when `appAccess`. */
  forRole(role: string | null, appAccess: boolean): Promise<PermissionSet>;
  /** Forgets every role's permissions (this instance only; see AppContext for the shared invalidation). */
  clear(): void;
}

/** A permission cache reading through `db()`; concurrent callers for one role share one read. */
export function createPermissionCache(db: () => Kysely<any>): PermissionCache {
  let entries = new Map<string, Promise<PermissionSet>>();
  return {
    forRole(role, appAccess) {
      const key = `${role ?? ''}:${appAccess}`;
      const cached = entries.get(key);
      if (cached) return cached;
      const generation = entries;
      const load = loadPermissions(db(), role, appAccess).catch((error: unknown) => {
        if (generation.get(key) === load) generation.delete(key);
        throw error;
      });
      entries.set(key, load);
      return load;
    },
    clear() {
      entries = new Map();
    },
  };
}
