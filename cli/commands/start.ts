import cluster from 'node:cluster';
import { ensureAdminBuilt } from '../../server/admin-build.ts';
import { loadConfig, type Config } from '../../server/config/index.ts';
import type { SystemContext } from '../context.ts';
import { assertPortFree } from '../port-check.ts';
import { StartTimings } from '../start-timings.ts';
import { PREPARE_ENV, runCluster, workerCount, type WorkerMessage } from '../start-cluster.ts';
import type { BootstrapResult } from '../../server/services/bootstrap.ts';

/** Options of `tessera start`. */
export interface StartOptions {
  port?: number;
  /** Print how long each start phase took and the memory after it. */
  timings?: boolean;
  /** Processes serving the port (node:cluster); 1 serves from this process. */
  workers?: number;
}

/** Prints the addresses and, on a fresh database, the first administrator's password. */
export function printWelcome(url: string, admin: BootstrapResult['admin'], adminEmail: string, workers = 1): void {
  const lines = [`Tessera is running${workers > 1 ? ` (${workers} workers)` : ''}.`, ``, `  Admin:  ${url}/admin`, `  API:    ${url}`];
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
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
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

/**
 * `tessera start`: one process serving (the default below 4 cores), or a cluster primary that prepares the
 * database and forks workers (start-cluster.ts); a cluster worker serves without preparing anything.
 */
export async function runStart(options: StartOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const timings = new StartTimings();
  const config = loadConfig(options.port === undefined ? env : { ...env, PORT: String(options.port) });
  timings.mark('config');
  if (cluster.isWorker) return serve(config, { timings, printTimings: options.timings === true, worker: true, prepare: env[PREPARE_ENV] === '1' });
  const workers = workerCount(options.workers, config);
  await assertPortFree(config.server.port, config.server.host);
  await ensureAdminBuilt((line) => process.stdout.write(`${line}\n`));
  timings.mark('admin check');
  if (workers.count > 1) return runCluster(config, workers.count, { timings, printTimings: options.timings === true });
  if (workers.note) process.stdout.write(`${workers.note}\n`);
  return serve(config, { timings, printTimings: options.timings === true, worker: false, prepare: true });
}

/**
 * Migrates (system, then project migrations), seeds an empty database, serves HTTP until SIGINT/SIGTERM,
 * then shuts down cleanly. In a cluster only the first worker migrates and seeds (`prepare`), and reports it
 * before the primary forks the others; every worker tells the primary once it listens.
 */
async function serve(config: Config, options: { timings: StartTimings; printTimings: boolean; worker: boolean; prepare: boolean }): Promise<void> {
  const { timings } = options;
  // Listen for the stop signal from the beginning: a SIGTERM during start-up then stops the server as soon
  // as it is up instead of killing the process halfway (and never slips between "started" and the handler).
  const shutdownSignal = waitForShutdownSignal();
  // The HTTP stack is most of the modules a start loads: fetch it while the database connects.
  const serverModules = Promise.all([import('../../server/http-server.ts'), import('../../server/process-guards.ts')]);
  serverModules.catch(() => undefined);
  const { openSystemContext } = await import('../context.ts');
  const context = await openSystemContext(config, { logTo: process.stdout, requireSchema: false, attach: false });
  timings.mark('database connect');
  const { app } = context;
  const [{ listen }, { installProcessGuards }] = await serverModules.catch(async (error: unknown) => {
    await context.close();
    throw error;
  });
  const removeGuards = installProcessGuards(app.logger);
  let control: { close(): Promise<void> } | null = null;
  try {
    const bootstrap = options.prepare ? await prepareDatabase(context, timings) : null;
    if (options.worker && bootstrap) process.send?.({ type: 'prepared', admin: bootstrap.admin } satisfies WorkerMessage);
    // The schema overview is read while the app is built and starts listening: requests that need it wait
    // for this same read, and /server/ping or /server/health need not.
    const schemaLoaded = app.schema.get();
    schemaLoaded.catch(() => undefined);
    const server = await listen(app, () => timings.mark('app build')).catch((error: unknown) => {
      // Lost between the port check and now: the password exists nowhere else, so show it before failing.
      if (bootstrap?.admin?.generated) process.stderr.write(`First administrator created: ${bootstrap.admin.email} / ${bootstrap.admin.password} (shown once: write it down)\n`);
      throw error;
    });
    timings.mark('listen');
    if (options.printTimings) {
      await selfPing(`http://${pingHost(config.server.host)}:${server.port}/server/ping`);
      timings.mark('first ping');
    }
    await schemaLoaded;
    timings.mark('schema load');
    // Commands run beside an embedded server (apply, migrate) tell it of schema changes through the lock
    // file; it is ready before the welcome, so a command started on seeing the welcome finds it.
    if (app.database.embedded) control = await startEmbeddedControl(app);
    const rssMb = { ...timings.rssByPhase(), peak: Math.round(process.resourceUsage().maxRSS / 1024) };
    app.logger.info({ port: server.port, embedded: app.database.embedded, rssMb, startMs: Math.round(timings.sinceProcessStart()) }, 'server started');
    if (options.printTimings) process.stdout.write(timings.format());
    if (options.worker) {
      process.send?.({ type: 'listening', port: server.port } satisfies WorkerMessage);
    } else {
      const url = config.server.publicUrl.replace(`:${config.server.port}`, `:${server.port}`);
      printWelcome(url, bootstrap!.admin, config.admin.email);
    }

    const { startJobs } = await import('../start-jobs.ts');
    const jobs = await startJobs(app, { clusterWorker: options.worker });

    const signal = await shutdownSignal;
    app.logger.info({ signal }, 'shutting down');
    await server.close();
    await jobs.stop();
    await app.events.idle();
  } finally {
    await control?.close();
    // The database closes only now: server.close() resolved once the last request handler returned.
    await context.close();
    removeGuards();
  }
  process.stdout.write(options.worker ? '' : 'Tessera stopped.\n');
}

/** Serves the embedded server's control port and records it in DATA_DIR/tessera.lock (withdrawn on close). */
async function startEmbeddedControl(app: SystemContext['app']): Promise<{ close(): Promise<void> }> {
  const { startControlListener } = await import('../../server/database/embedded-control.ts');
  const listener = await startControlListener(app);
  app.database.setControl(listener.control);
  return {
    async close() {
      app.database.setControl(null);
      await listener.close();
    },
  };
}

/** Runs pending system and project migrations, then seeds an empty database. */
async function prepareDatabase(context: SystemContext, timings: StartTimings): Promise<BootstrapResult> {
  const { app } = context;
  const [{ migrateLatest, systemMigrationsCurrent }, { migrateProjectLatest }, { bootstrapDatabase }] = await Promise.all([
    import('../../server/database/migrations.ts'),
    import('../../server/database/project-migrations.ts'),
    import('../../server/services/bootstrap.ts'),
  ]);
  if (!(await systemMigrationsCurrent(app.database.orm))) await migrateLatest(app.database.orm);
  await migrateProjectLatest(app.database.kysely(), app.config.migrationsPath);
  timings.mark('migrations check');
  const bootstrap = await bootstrapDatabase(context.system);
  timings.mark('bootstrap');
  return bootstrap;
}

/**
 * GET /server/ping through node:http, not fetch: fetch loads undici (and its WebAssembly HTTP parser), some
 * 10 MB resident that the idle figure of `--timings` would then include although the server never needs it.
 */
async function selfPing(url: string): Promise<void> {
  const { get } = await import('node:http');
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      response.once('end', resolve);
      response.once('error', reject);
    }).once('error', reject);
  });
}

/** Where this process reaches its own server: a wildcard bind address is reached on loopback. */
function pingHost(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
