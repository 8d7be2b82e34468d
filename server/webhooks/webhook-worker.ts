import type { JobHelpers, TaskList } from 'graphile-worker';
import type { AppContext } from '../app-context.ts';
import { FLOW_RUN_TASK } from '../flows/enqueue-flow-runs.ts';
import { flowRunTask } from '../flows/flow-run-task.ts';
import { FLOW_TICK_TASK, flowTickTask } from '../flows/schedule-tick-task.ts';
import type { ForegroundLoad } from '../jobs/foreground-load.ts';
import { startOutboxRelay } from '../jobs/outbox-relay.ts';
import { startJobWorker, type JobWorker } from '../jobs/job-queue.ts';
import { PRUNE_CRONTAB, PRUNE_TASK, pruneLogsTask } from '../jobs/prune-logs.ts';
import { parseAllowList } from '../outbound/address-policy.ts';
import { deliverWebhookTask } from './deliver-webhook.ts';
import { WEBHOOK_TASK } from './enqueue-deliveries.ts';

/** Each task first waits for its turn: at once, unless requests keep the server saturated. */
function givingWay(foreground: ForegroundLoad, tasks: TaskList): TaskList {
  return Object.fromEntries(
    Object.entries(tasks).map(([name, task]) => [
      name,
      async (payload: unknown, helpers: JobHelpers) => {
        await foreground.turn();
        return task!(payload, helpers);
      },
    ]),
  );
}

/**
 * Starts this process's job worker with the tasks Tessera knows (webhook deliveries, action flow runs,
 * schedule flow ticks, the hourly prune of background logs),
 * and the outbox relay that turns committed writes' events into those jobs.
 */
export async function startWorker(app: AppContext, options: { pollIntervalMs?: number } = {}): Promise<JobWorker> {
  const worker = await startJobWorker({
    url: app.database.orm.config.get('clientUrl')!,
    logger: app.logger,
    pollIntervalMs: options.pollIntervalMs,
    tasks: givingWay(app.foreground, {
      [WEBHOOK_TASK]: deliverWebhookTask(parseAllowList(app.config.outbound.allowedHosts)),
      [FLOW_RUN_TASK]: flowRunTask(app),
      [FLOW_TICK_TASK]: flowTickTask(app),
      [PRUNE_TASK]: pruneLogsTask(app),
    }),
    crontab: PRUNE_CRONTAB,
  });
  const relay = startOutboxRelay(app);
  return {
    async stop() {
      await relay.stop();
      await worker.stop();
    },
  };
}
