import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { InvalidPayloadError, InvalidQueryError } from '../errors.ts';
import { PanelRunner, checkRange, checkVariables, dashboardPanels } from './dashboard-data.ts';

function parseVariables(text: unknown): unknown {
  if (text === undefined || text === '') return undefined;
  if (typeof text !== 'string') throw new InvalidQueryError('"variables" must be given once, as URL-encoded JSON.', { field: 'variables' });
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidQueryError('"variables" must be URL-encoded JSON, e.g. {"status":"published"}.', { field: 'variables' });
  }
}

/** `GET /dashboards/:id/data` (every panel's data in one answer) and `POST /panels/preview` (an unsaved panel). */
export function insightsController(app: AppContext): Router {
  const router = new Router();

  router.get('/dashboards/:id/data', async (ctx) => {
    const request = { variables: checkVariables(parseVariables(ctx.query.variables)), range: checkRange(ctx.query.range) };
    const runner = new PanelRunner(app, ctx.state.accountability);
    const panels = await dashboardPanels(runner, ctx.params.id!);
    ctx.body = { data: await runner.runAll(panels, request) };
  });

  router.post('/panels/preview', async (ctx) => {
    const body = ctx.request.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidPayloadError('The body must be {"type", "options", "variables"?}.', { field: 'type' });
    const { type, options, variables, range } = body as Record<string, unknown>;
    let request;
    try {
      request = { variables: checkVariables(variables), range: checkRange(range) };
    } catch (error) {
      throw new InvalidPayloadError((error as Error).message, { field: (error as InvalidQueryError).extensions.field });
    }
    ctx.body = { data: await new PanelRunner(app, ctx.state.accountability).preview(type, options, request) };
  });

  return router;
}
