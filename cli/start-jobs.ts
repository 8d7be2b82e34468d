import type { AppContext } from '../server/app-context.ts';

/** Whatever works on the job queue for this server, and how to stop it. */
export interface RunningJobs {
  stop(): Promise<void>;
}

/**
 * Starts the job worker JOBS_WORKER asks for: `process` a `tessera worker` child at a lower priority,
 * `inline` graphile-worker in this process, `off` none (and in every case the outbox relay for this
 * process's writes). Cluster workers (`--workers N`) never start a job process: the cluster primary starts
 * the one job process instead.
 */
export async function startJobs(app: AppContext, options: { clusterWorker: boolean }): Promise<RunningJobs> {
  const mode = app.config.jobs.worker;
  if (mode === 'inline') {
    // graphile-worker loads here, after the first request can be answered.
    const { startWorker } = await import('../server/webhooks/webhook-worker.ts');
    return startWorker(app);
  }
  // Whoever works on the jobs, this process turns its own writes' outbox events into them at once.
  const { startOutboxRelay } = await import('../server/jobs/outbox-relay.ts');
  const relay = startOutboxRelay(app);
  if (mode === 'off' || options.clusterWorker) return relay;
  const { startJobProcess } = await import('../server/jobs/job-process.ts');
  const jobs = await startJobProcess({ logger: app.logger, foreground: app.foreground });
  return {
    async stop() {
      await relay.stop();
      await jobs.stop();
    },
  };
}
