import { Cron } from 'croner';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { systemAccountability } from '../auth/accountability.ts';
import { addJobs, jobSpec } from '../jobs/add-jobs.ts';
import { scheduledTick } from '../jobs/scheduled-tick.ts';
import type { FlowRow } from './flow-types.ts';
import { FLOW_TICK_MAX_ATTEMPTS, FLOW_TICK_TASK } from './schedule-tick-task.ts';

const running = new Set<Cron>();

/** How many schedule timers are running in this process (diagnostics and tests). */
export function scheduleTimers(): number {
  return running.size;
}

/**
 * Starts a croner timer (6-field cron, seconds first) per active schedule flow. Every instance ticks; the
 * instance whose insert of (flow, tick) into tessera_automation.flow_ticks wins enqueues the tick's run as a
 * job in the same statement, so a tick runs once however many instances share the database, and a claimed
 * tick is never lost with the instance that claimed it (killed before the run, the run was lost with it).
 * A job worker runs it (schedule-tick-task.ts), retried like any job.
 */
export function startScheduleTriggers(app: AppContext, flows: FlowRow[]): () => void {
  const db = app.servicesContext(systemAccountability()).db;
  const timers = flows.map(
    (flow) =>
      new Cron(String(flow.options?.cron ?? ''), { protect: true }, async (self: Cron) => {
        const tick = scheduledTick(self);
        const job = sql`json_build_object('flow', ${flow.id}::text, 'tick', ${tick.toISOString()}::text)`;
        try {
          await sql`with claimed as (insert into tessera_automation.flow_ticks (flow, tick) values (${flow.id}, ${tick}) on conflict do nothing returning flow)
            ${addJobs(sql`select ${jobSpec(FLOW_TICK_TASK, job, FLOW_TICK_MAX_ATTEMPTS)} from claimed`)}`.execute(db);
        } catch (error) {
          app.logger.error({ err: error, flow: flow.id }, 'could not claim a schedule tick');
        }
      }),
  );
  for (const timer of timers) running.add(timer);
  return () => {
    for (const timer of timers) {
      timer.stop();
      running.delete(timer);
    }
  };
}
