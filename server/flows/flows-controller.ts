import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError, InvalidQueryError, RouteNotFoundError } from '../errors.ts';
import { loadFlow, runLoadedFlow, type FlowResult } from './flow-engine.ts';
import { readFlowRuns } from './flow-runs.ts';
import { startManualFlow } from './manual-trigger.ts';

/** What a webhook flow answers: `$last` (default), `$all`, or one operation's key. */
function answer(result: FlowResult, returns: unknown): unknown {
  if (returns === '$all') return result.data;
  if (typeof returns === 'string' && returns !== '$last' && returns !== '') return result.data[returns];
  return result.last;
}

/**
 * A webhook flow answers its result itself, without the `data` envelope, as Directus does (its clients read
 * the body as the flow's value); no result is 204. Strings go out as JSON too, not as text.
 */
function respondBare(ctx: Context, value: unknown): void {
  if (value === undefined || value === null) {
    ctx.status = 204;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(value);
}

/**
 * `GET|POST /flows/trigger/:id`: starts a `webhook` flow (options.method, options.async, options.return)
 * or, by POST with `{ collection, keys }`, a `manual` flow (options.collections) for a signed-in user who may
 * read the flow, the collection and those items, at least one unless `requireSelection` is false
 * (manual-flow-access.ts);
 * `GET /flows/:id/runs`: the run log.
 */
export function flowsController(app: AppContext): Router {
  const router = new Router();
  const handle = async (ctx: Context) => {
    const loaded = await loadFlow(app, String(ctx.params.id));
    if (!loaded || loaded.flow.status !== 'active' || (loaded.flow.trigger !== 'webhook' && loaded.flow.trigger !== 'manual')) throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
    const { flow, operations } = loaded;
    const options = flow.options ?? {};
    const accountability = ctx.state.accountability;
    if (flow.trigger === 'manual') {
      if (ctx.method !== 'POST') throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
      await startManualFlow(app, loaded, accountability, (ctx.request.body ?? {}) as Record<string, unknown>);
      ctx.body = { data: null };
      return;
    }
    const method = String(options.method ?? 'GET').toUpperCase();
    if (ctx.method !== method) throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
    const trigger = { path: ctx.path, query: ctx.query, body: ctx.request.body ?? null, method: ctx.method, headers: { ...ctx.headers, authorization: undefined, cookie: undefined } };
    const run = runLoadedFlow(app, flow, operations, trigger, accountability);
    if (options.async === true) {
      run.catch((error: unknown) => app.logger.error({ err: error, flow: flow.id }, 'flow run failed'));
      ctx.status = 204;
      return;
    }
    const result = await run;
    if (result.rejected) throw new InvalidPayloadError(messageOf(result.last) ?? `Flow "${flow.name}" failed.`, { field: 'flow' });
    respondBare(ctx, answer(result, options.return));
  };
  router.get('/flows/trigger/:id', handle);
  // An administrator reads a flow's run log and the runs still queued (the admin's run log).
  router.get('/flows/:id/runs', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    const id = String(ctx.params.id);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new ForbiddenError();
    const limit = ctx.query.limit === undefined ? 50 : Number(ctx.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new InvalidQueryError('"limit" must be an integer from 1 to 500.', { field: 'limit' });
    const { runs, queued } = await readFlowRuns(app.database.kysely(), id, limit);
    ctx.body = { data: runs, meta: { queued } };
  });
  router.post('/flows/trigger/:id', handle);
  return router;
}

export function messageOf(value: unknown): string | null {
  return value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string' ? (value as { message: string }).message : null;
}
