import type { AppContext } from '../app-context.ts';
import { FLOW_RUN_TASK } from '../flows/enqueue-flow-runs.ts';
import { flowRunTask } from '../flows/flow-run-task.ts';
import { startJobWorker, type JobWorker } from '../jobs/job-queue.ts';
import { parseAllowList } from '../outbound/address-policy.ts';
import { deliverWebhookTask } from './deliver-webhook.ts';
import { WEBHOOK_TASK } from './enqueue-deliveries.ts';

/** Starts this process's job worker with the tasks Tessera knows (webhook deliveries, action flow runs). */
export function startWorker(app: AppContext, options: { pollIntervalMs?: number } = {}): Promise<JobWorker> {
  return startJobWorker({
    url: app.database.orm.config.get('clientUrl')!,
    logger: app.logger,
    pollIntervalMs: options.pollIntervalMs,
    tasks: { [WEBHOOK_TASK]: deliverWebhookTask(parseAllowList(app.config.outbound.allowedHosts)), [FLOW_RUN_TASK]: flowRunTask(app) },
  });
}
