import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';

/** A manual trigger as the controller has read it from the request. */
export interface ManualRun {
  flow: string;
  collection: string;
  /** The flow's `options.requireSelection` is not false: the run is about the listed items. */
  requireSelection: boolean;
  keys: ItemKey[];
}

/**
 * The keys a manual flow run may carry as `$trigger.keys`, or 403. Anyone but an administrator must be
 * allowed to read the flow (app users are, for active manual flows, through the app's default permission
 * on tessera_flows) and the collection. A flow that requires a selection needs at least one key (400
 * naming `keys`), each of an item the caller may read (administrators: that exists); the same 403 for a
 * flow or item that does not exist. A flow with `requireSelection: false` runs on no item: it gets no keys,
 * whatever the request sent, so its item operations cannot be pointed at items nobody checked.
 */
export async function manualRunKeys(app: AppContext, accountability: Accountability, run: ManualRun): Promise<ItemKey[]> {
  const schema = await app.schema.get();
  const context = { ...app.servicesContext(accountability), schema };
  if (!accountability.admin) await new ItemsService('tessera_flows', context).readOne(run.flow, { fields: ['id'] });
  if (!Object.hasOwn(schema.collections, run.collection)) throw new ForbiddenError();
  const items = new ItemsService(run.collection, context);
  if (!run.requireSelection) {
    if (!accountability.admin) await items.readByQuery({ fields: [items.primaryKeyField], limit: 1 });
    return [];
  }
  if (run.keys.length === 0) throw new InvalidPayloadError('"keys" must list at least one item: this flow runs on selected items.', { field: 'keys' });
  const readable = await items.readableKeys(run.keys);
  if (readable.length !== new Set(run.keys.map(String)).size) throw new ForbiddenError();
  return readable;
}
