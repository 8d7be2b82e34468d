import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import type { Query } from '../query/types.ts';
import type { ItemsService } from '../services/items/items-service.ts';
import { applyVersion } from '../services/versions/apply-version.ts';
import { VersionsService } from '../services/versions/versions-service.ts';

/** `GET /items/:collection/:id?version=key`: the item as read, with the changes of that version the caller may read applied. */
export async function readVersioned(app: AppContext, ctx: Context, service: ItemsService, query: Query, key: string): Promise<Record<string, unknown>> {
  const context = { ...app.servicesContext(ctx.state.accountability), schema: await app.schema.get() };
  const item = await service.readOne(ctx.params.id!, query);
  const versions = new VersionsService(context);
  const version = await versions.byKey(service.collection, ctx.params.id!, key);
  return applyVersion(context, service.collection, item, await versions.readableDelta(version), query);
}
