import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { loadFlow, runLoadedFlow } from './flow-engine.ts';
import { manualRunKeys } from './manual-flow-access.ts';

type LoadedFlow = NonNullable<Awaited<ReturnType<typeof loadFlow>>>;

/**
 * Starts a run of the loaded `manual` flow for `body` (`{ collection, keys, …more }`, which becomes
 * `$trigger`) once the caller passes manual-flow-access.ts; the run goes on in the background (its failure
 * is logged). POST /flows/trigger/:id and the MCP `trigger-flow` tool share it.
 */
export async function startManualFlow(app: AppContext, loaded: LoadedFlow, accountability: Accountability, body: Record<string, unknown>): Promise<void> {
  const { flow, operations } = loaded;
  const options = flow.options ?? {};
  if (!accountability.user) throw new ForbiddenError();
  const collections = Array.isArray(options.collections) ? (options.collections as string[]) : [];
  if (typeof body.collection !== 'string' || !collections.includes(body.collection)) throw new InvalidPayloadError(`"collection" must be one of: ${collections.join(', ')}.`, { field: 'collection', allowed: collections });
  if (body.keys !== undefined && (!Array.isArray(body.keys) || !body.keys.every((key) => typeof key === 'string' || typeof key === 'number'))) throw new InvalidPayloadError('"keys" must be a list of item keys.', { field: 'keys' });
  const keys = await manualRunKeys(app, accountability, { flow: flow.id, collection: body.collection, requireSelection: options.requireSelection !== false, keys: (body.keys ?? []) as Array<string | number> });
  const run = runLoadedFlow(app, flow, operations, { ...body, collection: body.collection, keys }, accountability);
  run.catch((error: unknown) => app.logger.error({ err: error, flow: flow.id }, 'flow run failed'));
}

/** startManualFlow for a flow id: FORBIDDEN unless it names an active manual flow. */
export async function startManualFlowById(app: AppContext, id: string, accountability: Accountability, body: Record<string, unknown>): Promise<void> {
  const loaded = await loadFlow(app, id);
  if (!loaded || loaded.flow.status !== 'active' || loaded.flow.trigger !== 'manual') throw new ForbiddenError();
  await startManualFlow(app, loaded, accountability, body);
}
