import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { systemMigrationsCurrent } from '../database/migrations.ts';
import { SettingsService } from '../services/settings-service.ts';
import { checkHealth, healthFor, timedCheck } from '../server-health.ts';
import { packageVersion } from '../version.ts';

/** Public project facts shown before sign-in (SPEC §2: logo and brand colour on the sign-in card). */
const PUBLIC_SETTINGS = ['project_name', 'project_descriptor', 'project_url', 'project_color', 'project_logo', 'public_note', 'default_language', 'default_appearance', 'public_foreground', 'public_background', 'public_favicon'] as const;

/** `/server/ping`, `/server/health`, `/server/ready` and `/server/info`. */
export function serverController(app: AppContext): Router {
  const router = new Router({ prefix: '/server' });

  // text/html as Directus serves it (its suite checks the type; issue 31); the body is a constant.
  router.get('/ping', (ctx) => {
    ctx.type = 'text/html';
    ctx.body = 'pong';
  });

  // 503 when the database is down (server-health.ts).
  router.get('/health', async (ctx) => {
    const report = await checkHealth(app);
    if (report.databaseError) ctx.state.logger?.warn({ err: report.databaseError }, 'health check: database unreachable');
    ctx.status = report.databaseError ? 503 : 200;
    ctx.body = healthFor(report, ctx.state.accountability?.admin === true);
    ctx.set('Cache-Control', 'no-store');
  });

  // Readiness for orchestrators: whether this instance should get traffic now. Beyond /health, the database
  // must hold every system migration this version needs (an instance started before `tessera migrate`
  // finished would answer with errors). Redis is reported as in /health but never makes it unready: every
  // instance shares it, and failing them all at once would turn a degraded service into an outage.
  router.get('/ready', async (ctx) => {
    const pingRedis = app.pingRedis;
    let current = false;
    const [database, redis] = await Promise.all([timedCheck(async () => (current = await systemMigrationsCurrent(app.database.orm))), pingRedis ? timedCheck(pingRedis) : null]);
    const checks: Record<string, unknown> = { database: database.error ? { status: 'error', output: 'database unreachable' } : { status: 'ok', responseTime: database.ms } };
    if (!database.error) checks.migrations = current ? { status: 'ok' } : { status: 'error', output: 'system migrations pending: run `tessera migrate`' };
    if (redis) checks.redis = redis.error ? { status: 'warn', output: 'redis unreachable: local fallbacks in use' } : { status: 'ok', responseTime: redis.ms };
    const ready = !database.error && current;
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? (redis?.error ? 'warn' : 'ok') : 'error', checks };
    ctx.set('Cache-Control', 'no-store');
  });

  router.get('/info', async (ctx) => {
    const settings = await new SettingsService(app.servicesContext(ctx.state.accountability)).read();
    const project = Object.fromEntries(PUBLIC_SETTINGS.map((key) => [key, settings?.[key] ?? null]));
    // Not a setting: the admin draws Insights dates in the zone the server buckets them in (PROJECT_TIME_ZONE).
    project.time_zone = app.config.project.timeZone;
    const data: Record<string, unknown> = { project };
    // Directus's shape: clients (the admin's collaborative editing) open /websocket only when it is served.
    data.websocket = app.config.realtime.enabled ? { rest: { authentication: app.config.realtime.auth, path: '/websocket' } } : false;
    if (ctx.state.accountability.admin) {
      data.tessera = { version: packageVersion() };
      data.node = { version: process.versions.node, uptime: Math.round(process.uptime()) };
      data.database = { embedded: app.database.embedded };
      // Where e-mail goes (ses, smtp, or the DATA_DIR/outbox folder): the admin says where an invitation went.
      data.email = { transport: app.mailer.transport };
    }
    ctx.body = { data };
  });

  return router;
}
