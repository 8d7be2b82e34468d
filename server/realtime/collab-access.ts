import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError } from '../errors.ts';
import { ownValue } from '../own-keys.ts';
import { resolveAccess } from '../permissions/access.ts';
import { ItemsService } from '../services/items/items-service.ts';

/** What one member may see and take in a room's collection, asked afresh each time (permissions are cached per role). */
export interface CollabAccess {
  /** Whether the member may read the item (a singleton: the collection). */
  canReadItem(collection: string, item: string | null): Promise<boolean>;
  /** Of `items`, those the member may read. */
  readableItems(collection: string, items: string[]): Promise<Set<string>>;
  /** Whether the member may read `field` of the collection. */
  canReadField(collection: string, field: string): Promise<boolean>;
  /** Whether the member may edit `field`: only then may it lock it for others. */
  canUpdateField(collection: string, field: string): Promise<boolean>;
}

/** The permission questions of collaborative editing, answered through the permission engine as REST would. */
export function collabAccess(app: AppContext, accountability: Accountability): CollabAccess {
  const context = async () => ({ ...app.servicesContext(accountability), schema: await app.schema.get() });
  const access = async () => {
    const ctx = await context();
    return { schema: ctx.schema, access: await resolveAccess(ctx, ctx.schema) };
  };
  const hasField = (schema: Awaited<ReturnType<typeof context>>['schema'], collection: string, field: string) => {
    const overview = ownValue(schema.collections, collection);
    return Boolean(overview && ownValue(overview.fields, field));
  };
  const allows = (allowed: '*' | ReadonlySet<string>, field: string) => allowed === '*' || allowed.has(field);
  return {
    async canReadItem(collection, item) {
      const ctx = await context();
      let service: ItemsService;
      try {
        service = new ItemsService(collection, ctx);
      } catch (error) {
        if (error instanceof ForbiddenError) return false;
        throw error;
      }
      if (item !== null) return service.isReadable(item);
      const { access: rules } = await access();
      return rules === null || rules.permission(collection, 'read') !== null;
    },
    async readableItems(collection, items) {
      if (items.length === 0) return new Set();
      const service = new ItemsService(collection, await context());
      return new Set((await service.readableKeys(items)).map(String));
    },
    async canReadField(collection, field) {
      const { schema, access: rules } = await access();
      if (!hasField(schema, collection, field)) return false;
      return rules === null || allows(rules.allowedFields(collection, 'read'), field);
    },
    async canUpdateField(collection, field) {
      const { schema, access: rules } = await access();
      if (!hasField(schema, collection, field)) return false;
      if (rules === null) return true;
      return rules.permission(collection, 'update') !== null && allows(rules.allowedFields(collection, 'update'), field) && allows(rules.allowedFields(collection, 'read'), field);
    },
  };
}
