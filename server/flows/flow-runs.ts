import { sql, type Kysely } from 'kysely';
import { readQueuedJobs, type QueuedJob } from '../jobs/queued-jobs.ts';
import { FLOW_RUN_TASK } from './enqueue-flow-runs.ts';
import { FLOW_TICK_TASK } from './schedule-tick-task.ts';

/** One logged run of a flow (an activity row with action `run`; its steps when the flow logs `all`). */
export interface FlowRun {
  id: number;
  timestamp: string;
  user: string | null;
  /** `resolved` or `rejected` (an unhandled rejection ended it); null when the flow logs activity only. */
  status: 'resolved' | 'rejected' | null;
  trigger: unknown;
  steps: Array<{ operation: string; key: string; status: 'resolve' | 'reject'; options: unknown; data: unknown }> | null;
}

/** A flow's run log (newest first; step data was masked when it was written) and its queued runs or ticks. */
export async function readFlowRuns(db: Kysely<any>, flow: string, limit: number): Promise<{ runs: FlowRun[]; queued: QueuedJob[] }> {
  const runs = await sql<FlowRun>`select a.id, a.timestamp, a."user",
        r.data->>'status' as status, r.data->'trigger' as trigger, r.data->'steps' as steps
      from tessera_activity a left join tessera_revisions r on r.activity = a.id
     where a.collection = 'tessera_flows' and a.action = 'run' and a.item = ${flow}
     order by a.id desc limit ${limit}`.execute(db);
  // An event flow's queued runs, or a schedule flow's queued ticks (a flow is one or the other).
  const queued = [...(await readQueuedJobs(db, FLOW_RUN_TASK, 'flow', flow)), ...(await readQueuedJobs(db, FLOW_TICK_TASK, 'flow', flow))];
  return { runs: runs.rows, queued };
}
