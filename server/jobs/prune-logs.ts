import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { AppContext } from '../app-context.ts';
import type { Config } from '../config/index.ts';

/** The graphile-worker task that prunes the background logs. */
export const PRUNE_TASK = 'tessera_prune_logs';

/**
 * graphile-worker crontab line: every hour at minute 17. graphile-worker schedules each tick once however
 * many workers share the database, and `?max=1` runs it without retries (the next hour prunes anyway).
 */
export const PRUNE_CRONTAB = `17 * * * * ${PRUNE_TASK} ?max=1`;

/** Rows one statement deletes: a large backlog is removed in short transactions, never one long lock. */
const BATCH = 5000;

/** Rows removed by one prune run, per log. */
export interface PruneCounts {
  scheduleTicks: number;
  webhookDeliveries: number;
  flowRuns: number;
}

/** Deletes the rows `select ctid` lists, BATCH at a time, until none is left; returns how many went. */
async function deleteInBatches(db: Kysely<any>, table: RawBuilder<unknown>, where: RawBuilder<unknown>): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${BATCH}))`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    total += count;
    if (count < BATCH) return total;
  }
}

const cutoff = (now: Date, keepMs: number) => new Date(now.getTime() - keepMs);

/**
 * Removes what is older than its retention (a retention of 0 keeps everything): claimed schedule ticks
 * (tessera_automation.flow_ticks of schedule flows, schedule_ticks of extension schedules), webhook delivery attempts (tessera_automation.webhook_deliveries) and flow
 * run logs (activity rows with action `run` on tessera_flows; their revisions go with them by cascade).
 */
export async function pruneLogs(db: Kysely<any>, retention: Config['retention'], now = new Date()): Promise<PruneCounts> {
  const counts: PruneCounts = { scheduleTicks: 0, webhookDeliveries: 0, flowRuns: 0 };
  if (retention.scheduleTicksMs > 0) {
    const before = cutoff(now, retention.scheduleTicksMs);
    counts.scheduleTicks = (await deleteInBatches(db, sql`tessera_automation.flow_ticks`, sql`tick < ${before}`)) + (await deleteInBatches(db, sql`tessera_automation.schedule_ticks`, sql`tick < ${before}`));
  }
  if (retention.webhookDeliveriesMs > 0) {
    counts.webhookDeliveries = await deleteInBatches(db, sql`tessera_automation.webhook_deliveries`, sql`date_created < ${cutoff(now, retention.webhookDeliveriesMs)}`);
  }
  if (retention.flowRunsMs > 0) {
    counts.flowRuns = await deleteInBatches(db, sql`tessera_activity`, sql`collection = 'tessera_flows' and action = 'run' and "timestamp" < ${cutoff(now, retention.flowRunsMs)}`);
  }
  return counts;
}

/** The task graphile-worker runs on PRUNE_CRONTAB. */
export function pruneLogsTask(app: AppContext) {
  return async () => {
    const counts = await pruneLogs(app.database.kysely(), app.config.retention);
    app.logger.debug({ ...counts }, 'background logs pruned');
  };
}
