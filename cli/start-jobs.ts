import type { AppContext } from '../server/app-context.ts';

/** Whatever works on the job queue for this server, and how to stop it. */
export interface RunningJobs {
  stop(): Promise<void>;
}

/**
 * Starts the job worker JOBS_WORKER asks for: `process` a `tessera worker` child at a lower priority,
 * `inline` graphile-worker in this process, `off` nothing. Cluster workers (`--workers N`) never start a
 * job process: the cluster primary starts the one job process instead.
 */
export async function startJobs(app: AppContext, options: { clusterWorker: boolean }): Promise<RunningJobs> {
  const mode = app.config.jobs.worker;
  if (mode === 'off' || (mode === 'process' && options.clusterWorker)) return { stop: async () => undefined };
  if (mode === 'process') {
    const { startJobProcess } = await import('../server/jobs/job-process.ts');
    return startJobProcess({ logger: app.logger });
  }
  // graphile-worker loads here, after the first request can be answered.
  const { startWorker } = await import('../server/webhooks/webhook-worker.ts');
  return startWorker(app);
}
