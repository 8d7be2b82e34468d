import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError } from '../errors.ts';
import { ItemsService } from '../services/items/items-service.ts';

/**
 * Whether `accountability` may run a manual flow on `keys` of `collection`: an administrator may; anyone
 * else must be allowed to read the flow (app users are, for active manual flows, through the app's default
 * permission on tessera_flows), to read the collection, and to read every item the run is about.
 * Throws 403 otherwise, the same answer for a flow or item that does not exist.
 */
export async function assertMayRunManualFlow(app: AppContext, accountability: Accountability, flow: string, collection: string, keys: Array<string | number>): Promise<void> {
  if (accountability.admin) return;
  const schema = await app.schema.get();
  const context = { ...app.servicesContext(accountability), schema };
  await new ItemsService('tessera_flows', context).readOne(flow, { fields: ['id'] });
  if (!schema.collections[collection]) throw new ForbiddenError();
  const items = new ItemsService(collection, context);
  const unique = [...new Set(keys.map(String))];
  if (unique.length === 0) {
    await items.readByQuery({ fields: [items.primaryKeyField], limit: 1 });
    return;
  }
  const found = await items.readMany(keys, { fields: [items.primaryKeyField] });
  if (found.length !== unique.length) throw new ForbiddenError();
}
