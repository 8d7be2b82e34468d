import type { AccessControlProvider } from '@refinedev/core';
import { fetchIdentity } from './auth-provider.ts';
import { apiData } from './http-client.ts';
import { PermissionIndex, collectionOfResource, type EffectivePermission } from './permissions.ts';
import { SYSTEM_ENDPOINTS } from './resource-paths.ts';

let cached: Promise<PermissionIndex> | null = null;

/** The caller's permissions, read once per sign-in (cleared by `forgetPermissions`). */
export function loadPermissions(): Promise<PermissionIndex> {
  cached ??= apiData<EffectivePermission[]>('/permissions/me').then((rows) => new PermissionIndex(rows ?? []), (error) => {
    cached = null;
    throw error;
  });
  return cached;
}

let adminCached: Promise<boolean> | null = null;

/** Whether the caller's role has admin access, read once per sign-in like the permissions. */
function loadAdminAccess(): Promise<boolean> {
  adminCached ??= fetchIdentity().then((identity) => Boolean(identity.role?.admin_access), (error) => {
    adminCached = null;
    throw error;
  });
  return adminCached;
}

/** Drops the cached permissions (sign-in, sign-out, a role change). */
export function forgetPermissions(): void {
  cached = null;
  adminCached = null;
}

/**
 * Refine's `can`, fed by `/permissions/me`: buttons and menu entries for what the caller may not do are
 * hidden. A resource may name its collection in `meta.collection` (e.g. the data model's screens use
 * `tessera_collections`); `params.field` asks about one field. `meta.menuAction` is what listing a
 * module's screen takes (e.g. `update` for settings: every app user may read them, few may change them).
 * `meta.adminOnly` screens (extensions: the API answers administrators only, whatever the permissions
 * say) are offered to roles with admin access alone.
 */
export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action, params }) {
    if (!resource) return { can: true };
    const index = await loadPermissions().catch(() => null);
    if (!index) return { can: false, reason: 'Permissions could not be read' };
    const meta = params?.resource?.meta as { collection?: string; adminOnly?: boolean; menuAction?: string } | undefined;
    if (meta?.adminOnly) {
      const admin = await loadAdminAccess().catch(() => false);
      return admin ? { can: true } : { can: false, reason: 'Only administrators can do this' };
    }
    const collection = meta?.collection ?? collectionOfResource(resource, SYSTEM_ENDPOINTS);
    const field = params?.field as string | undefined;
    const asked = action === 'list' && meta?.menuAction ? meta.menuAction : action;
    const can = field ? index.canField(collection, asked, field) : index.can(collection, asked);
    return can ? { can } : { can, reason: 'You do not have permission to do this' };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
