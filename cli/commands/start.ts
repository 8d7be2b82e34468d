import { ensureAdminBuilt } from '../../server/admin-build.ts';
import { loadConfig } from '../../server/config/index.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { migrateProjectLatest } from '../../server/database/project-migrations.ts';
import { listen } from '../../server/http-server.ts';
import { startWorker } from '../../server/webhooks/webhook-worker.ts';
import { events } from '../../server/events/event-bus.ts';
import { bootstrapDatabase, type BootstrapResult } from '../../server/services/bootstrap.ts';
import { openSystemContext } from '../context.ts';
import { assertPortFree } from '../port-check.ts';

/** Options of `tessera start`. */
export interface StartOptions {
  port?: number;
}

function printWelcome(url: string, admin: BootstrapResult['admin'], adminEmail: string): void {
  const lines = [`Tessera is running.`, ``, `  Admin:  ${url}/admin`, `  API:    ${url}`];
  if (admin) {
    lines.push(``, `  First administrator created:`, `    e-mail:   ${admin.email}`);
    lines.push(admin.generated ? `    password: ${admin.password}   (shown once: write it down)` : `    password: the ADMIN_PASSWORD you configured`);
  } else {
    lines.push(``, `  Sign in as ${adminEmail} (or any user); reset a password with: npx tessera users passwd --email <e-mail>`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

/**
 * Resolves on the first SIGINT or SIGTERM. Later signals are swallowed: `npm start` forwards Ctrl-C to
 * us as well, and a second default SIGINT would kill the process halfway through closing the database.
 */
function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (!received) resolve(signal);
      received = true;
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** Migrates (system, then project migrations), seeds an empty database, serves HTTP until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(options: StartOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(options.port === undefined ? env : { ...env, PORT: String(options.port) });
  await assertPortFree(config.server.port, config.server.host);
  await ensureAdminBuilt((line) => process.stdout.write(`${line}\n`));
  const context = await openSystemContext(config, { logTo: process.stdout, requireSchema: false, attach: false });
  const { app } = context;
  try {
    await migrateLatest(app.database.orm);
    await migrateProjectLatest(app.database.kysely(), config.migrationsPath);
    const bootstrap = await bootstrapDatabase(context.system);
    const server = await listen(app).catch((error: unknown) => {
      // Lost between the port check and now: the password exists nowhere else, so show it before failing.
      if (bootstrap.admin?.generated) process.stderr.write(`First administrator created: ${bootstrap.admin.email} / ${bootstrap.admin.password} (shown once: write it down)\n`);
      throw error;
    });
    const url = config.server.publicUrl.replace(`:${config.server.port}`, `:${server.port}`);
    app.logger.info({ port: server.port, embedded: app.database.embedded }, 'server started');
    printWelcome(url, bootstrap.admin, config.admin.email);

    events.setLogger(app.logger);
    const worker = await startWorker(app);

    const signal = await waitForShutdownSignal();
    app.logger.info({ signal }, 'shutting down');
    await server.close();
    await worker.stop();
    await events.idle();
  } finally {
    await context.close();
  }
  process.stdout.write('Tessera stopped.\n');
}

