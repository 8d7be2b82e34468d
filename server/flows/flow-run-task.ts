import type { JobHelpers } from 'graphile-worker';
import type { AppContext } from '../app-context.ts';
import type { FlowRunJob } from './enqueue-flow-runs.ts';
import { lazyModule } from '../lazy-module.ts';

// The engine brings every operation (HTTP client, mail, JWT, scripts): loaded with the first flow run.
const loadEngine = lazyModule(() => import('./flow-engine.ts'));

/**
 * Runs one event `action` flow job: the flow as it is now (deleted or deactivated since: nothing runs),
 * as the user whose write caused it. A thrown error (the flow could not be loaded or logged) fails the
 * job, so graphile-worker retries it and keeps the error; an operation's rejection is part of the run.
 */
export function flowRunTask(app: AppContext) {
  return async (raw: unknown, _helpers: JobHelpers): Promise<void> => {
    const job = raw as FlowRunJob;
    const { eventCaller, loadFlow, runLoadedFlow } = await loadEngine();
    const loaded = await loadFlow(app, job.flow);
    if (!loaded || loaded.flow.status !== 'active' || loaded.flow.trigger !== 'event') return;
    await runLoadedFlow(app, loaded.flow, loaded.operations, job.trigger, eventCaller(job.accountability));
  };
}
