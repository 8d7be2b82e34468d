import { Cron } from 'croner';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { systemAccountability } from '../auth/accountability.ts';
import { scheduledTick } from '../jobs/scheduled-tick.ts';
import { runFlow } from './flow-engine.ts';
import type { FlowRow } from './flow-types.ts';

const running = new Set<Cron>();

/** How many schedule timers are running in this process (diagnostics and tests). */
export function scheduleTimers(): number {
  return running.size;
}

/**
 * Starts a croner timer (6-field cron, seconds first) per active schedule flow. Every instance ticks;
 * the instance whose insert of (flow, tick) into tessera_automation.flow_ticks wins runs it, so a tick
 * runs once however many instances share the database.
 */
export function startScheduleTriggers(app: AppContext, flows: FlowRow[]): () => void {
  const db = app.servicesContext(systemAccountability()).db;
  const timers = flows.map(
    (flow) =>
      new Cron(String(flow.options?.cron ?? ''), { protect: true }, async (self: Cron) => {
        const tick = scheduledTick(self);
        try {
          const claimed = await sql`insert into tessera_automation.flow_ticks (flow, tick) values (${flow.id}, ${tick}) on conflict do nothing returning flow`.execute(db);
          if (claimed.rows.length === 0) return;
          await runFlow(app, flow.id, { $schedule: tick.toISOString() }, null);
        } catch (error) {
          app.logger.error({ err: error, flow: flow.id }, 'scheduled flow failed');
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
