import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { resolveAccess } from '../permissions/access.ts';
import { itemPermissions } from '../services/item-permissions.ts';
import { PERMISSION_ACTIONS } from '../schema/system/constants.ts';
import type { Permission } from '../permissions/types.ts';

/** A permission in the shape of a tessera_permissions row (fields as a list). */
function toRow(permission: Permission) {
  return {
    collection: permission.collection,
    action: permission.action,
    fields: permission.fields === '*' ? ['*'] : [...permission.fields].sort(),
    permissions: permission.permissions ?? {},
    validation: permission.validation ?? {},
    presets: permission.presets,
  };
}

/** `/permissions/me`: the caller's effective permissions (stored rows and app defaults), for clients such as the admin app. */
export function permissionsController(app: AppContext): Router {
  const router = new Router({ prefix: '/permissions' });

  router.get('/me', async (ctx) => {
    const schema = await app.schema.get();
    const access = await resolveAccess(app.servicesContext(ctx.state.accountability), schema);
    const permissions: Permission[] = access
      ? access.all()
      : Object.values(schema.collections)
          .filter((collection) => collection.table)
          .flatMap((collection) => PERMISSION_ACTIONS.map((action) => ({ collection: collection.collection, action, fields: '*' as const, permissions: null, validation: null, presets: null })));
    const rows = permissions.map(toRow).sort((a, b) => a.collection.localeCompare(b.collection) || a.action.localeCompare(b.action));
    ctx.body = { data: rows };
  });

  // Directus's item check: may the caller update, delete and share this item (or the singleton's)?
  router.get('/me/:collection{/:pk}', async (ctx) => {
    const schema = await app.schema.get();
    ctx.body = { data: await itemPermissions(app.servicesContext(ctx.state.accountability), schema, ctx.params.collection!, ctx.params.pk) };
  });

  return router;
}
