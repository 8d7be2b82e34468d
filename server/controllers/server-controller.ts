import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { SettingsService } from '../services/settings-service.ts';
import { packageVersion } from '../version.ts';

/** Public project facts shown before sign-in (SPEC §2: logo and brand colour on the sign-in card). */
const PUBLIC_SETTINGS = ['project_name', 'project_descriptor', 'project_url', 'project_color', 'project_logo', 'public_note', 'default_language', 'default_appearance', 'public_foreground', 'public_background', 'public_favicon'] as const;

/** `/server/ping`, `/server/health` and `/server/info`. */
export function serverController(app: AppContext): Router {
  const router = new Router({ prefix: '/server' });

  router.get('/ping', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'pong';
  });

  router.get('/health', async (ctx) => {
    const started = performance.now();
    try {
      await app.database.ping();
      ctx.body = { status: 'ok', checks: { database: { status: 'ok', responseTime: Math.round(performance.now() - started) } } };
    } catch (error) {
      ctx.state.logger?.warn({ err: error }, 'health check failed');
      ctx.status = 503;
      ctx.body = { status: 'error', checks: { database: { status: 'error', output: 'database unreachable' } } };
    }
    ctx.set('Cache-Control', 'no-store');
  });

  router.get('/info', async (ctx) => {
    const settings = await new SettingsService(app.servicesContext(ctx.state.accountability)).read();
    const project = Object.fromEntries(PUBLIC_SETTINGS.map((key) => [key, settings?.[key] ?? null]));
    const data: Record<string, unknown> = { project };
    if (ctx.state.accountability.admin) {
      data.tessera = { version: packageVersion() };
      data.node = { version: process.versions.node, uptime: Math.round(process.uptime()) };
      data.database = { embedded: app.database.embedded };
    }
    ctx.body = { data };
  });

  return router;
}
