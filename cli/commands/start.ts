import { ensureAdminBuilt } from '../../server/admin-build.ts';
import { loadConfig } from '../../server/config/index.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { migrateProjectLatest } from '../../server/database/project-migrations.ts';
import { listen } from '../../server/http-server.ts';
import { installProcessGuards } from '../../server/process-guards.ts';
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
  // Resident memory (MB) after each start phase, logged with "server started" (bench/memory.ts reads it).
  const memory: Record<string, number> = {};
  const mark = (phase: string) => (memory[phase] = Math.round(process.memoryUsage.rss() / 2 ** 20));
  mark('loaded');
  // Listen for the stop signal from the beginning: a SIGTERM during start-up then stops the server as soon
  // as it is up instead of killing the process halfway (and never slips between "started" and the handler).
  const shutdownSignal = waitForShutdownSignal();
  const config = loadConfig(options.port === undefined ? env : { ...env, PORT: String(options.port) });
  await assertPortFree(config.server.port, config.server.host);
  await ensureAdminBuilt((line) => process.stdout.write(`${line}\n`));
  mark('adminChecked');
  const context = await openSystemContext(config, { logTo: process.stdout, requireSchema: false, attach: false });
  mark('databaseOpened');
  const { app } = context;
  const removeGuards = installProcessGuards(app.logger);
  try {
    await migrateLatest(app.database.orm);
    await migrateProjectLatest(app.database.kysely(), config.migrationsPath);
    mark('migrated');
    const bootstrap = await bootstrapDatabase(context.system);
    mark('bootstrapped');
    const server = await listen(app).catch((error: unknown) => {
      // Lost between the port check and now: the password exists nowhere else, so show it before failing.
      if (bootstrap.admin?.generated) process.stderr.write(`First administrator created: ${bootstrap.admin.email} / ${bootstrap.admin.password} (shown once: write it down)\n`);
      throw error;
    });
    mark('listening');
    memory.peak = Math.round(process.resourceUsage().maxRSS / 1024);
    const url = config.server.publicUrl.replace(`:${config.server.port}`, `:${server.port}`);
    app.logger.info({ port: server.port, embedded: app.database.embedded, rssMb: memory }, 'server started');
    printWelcome(url, bootstrap.admin, config.admin.email);

    events.setLogger(app.logger);
    const worker = await startWorker(app);

    const signal = await shutdownSignal;
    app.logger.info({ signal }, 'shutting down');
    await server.close();
    await worker.stop();
    await events.idle();
  } finally {
    // The database closes only now: server.close() resolved once the last request handler returned.
    await context.close();
    removeGuards();
  }
  process.stdout.write('Tessera stopped.\n');
}

