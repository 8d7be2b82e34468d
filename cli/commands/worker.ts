import os from 'node:os';
import { loadConfig } from '../../server/config/index.ts';
import { isForegroundMessage, JOB_PROCESS_NICE, JOB_PROCESS_READY } from '../../server/jobs/job-process.ts';
import { UsageError } from '../errors.ts';
import { waitForShutdownSignal } from './start.ts';

/**
 * `tessera worker`: works on the job queue (webhook deliveries, action flow runs) without serving HTTP.
 * `tessera start` runs it as its child process (JOBS_WORKER=process); it also runs on its own, on this or
 * another machine, next to servers started with JOBS_WORKER=off. It runs at a lower OS priority than the
 * servers, stops on SIGINT/SIGTERM after its running jobs, and, started by a server, when that server dies.
 */
export async function runWorker(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    os.setPriority(JOB_PROCESS_NICE);
  } catch {
    // Not permitted (a lower nice value was set from outside): keep the priority given.
  }
  const config = loadConfig(env);
  if (!config.database.url) throw new UsageError('tessera worker needs DB_URL: the embedded database is reached only by the server that runs it (JOBS_WORKER=inline runs jobs there).');
  const stop = new Promise<string>((resolve) => {
    void waitForShutdownSignal().then(resolve);
    // Started by a server: when it goes (even by SIGKILL) the IPC channel closes, and so do we.
    if (process.send) process.once('disconnect', () => resolve('parent gone'));
  });
  const { openSystemContext } = await import('../context.ts');
  const context = await openSystemContext(config, { logTo: process.stdout, attach: false });
  const { app } = context;
  try {
    const [{ startEventTriggers }, { startWorker }] = await Promise.all([
      import('../../server/flows/event-triggers.ts'),
      import('../../server/webhooks/webhook-worker.ts'),
    ]);
    // Flow operations write items here too: the filter flows on those writes run in this process.
    const stopTriggers = startEventTriggers(app, { schedules: false, refreshMs: 5_000 });
    // Started by a server: its requests come first while they saturate it (server/jobs/foreground-load.ts).
    process.on('message', (message) => {
      if (!isForegroundMessage(message) || message.saturated === app.foreground.saturated) return;
      app.foreground.set(message.saturated);
      // Saturation is worth an operator's attention (a warning); its end is news (info).
      if (message.saturated) app.logger.warn({ busyRate: app.config.jobs.busyRate }, 'the server is saturated: jobs start at JOBS_BUSY_RATE per second');
      else app.logger.info('the server is no longer saturated: jobs start at once');
    });
    const worker = await startWorker(app);
    process.send?.(JOB_PROCESS_READY);
    app.logger.info({ pid: process.pid }, 'job worker started');
    const reason = await stop;
    app.logger.info({ reason }, 'job worker stopping');
    await worker.stop();
    stopTriggers();
    await app.events.idle();
  } finally {
    await context.close();
  }
}
