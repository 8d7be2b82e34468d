import type { AppContext } from '../app-context.ts';
import { lazyModule } from '../lazy-module.ts';

/** graphile-worker task that runs one claimed tick of a schedule flow. */
export const FLOW_TICK_TASK = 'tessera_flow_tick';
/** Attempts per tick: retried only when the run could not start or be logged (as action flow runs, FLOW_RUN_MAX_ATTEMPTS). */
export const FLOW_TICK_MAX_ATTEMPTS = 3;

/** The job payload: which flow, and the cron occurrence (ISO time) its `$trigger.$schedule` is. */
export interface FlowTickJob {
  flow: string;
  tick: string;
}

const loadEngine = lazyModule(() => import('./flow-engine.ts'));

/**
 * Runs one schedule flow tick job: the flow as it is now (deleted, deactivated or no longer a schedule
 * since the tick was claimed: nothing runs). Whoever claimed the tick enqueued this job in the same
 * statement, so an instance that dies right after its claim loses no tick (schedule-triggers.ts).
 */
export function flowTickTask(app: AppContext) {
  return async (raw: unknown): Promise<void> => {
    const job = raw as FlowTickJob;
    const { loadFlow, runLoadedFlow } = await loadEngine();
    const loaded = await loadFlow(app, job.flow);
    if (!loaded || loaded.flow.status !== 'active' || loaded.flow.trigger !== 'schedule') return;
    await runLoadedFlow(app, loaded.flow, loaded.operations, { $schedule: job.tick }, null);
  };
}
