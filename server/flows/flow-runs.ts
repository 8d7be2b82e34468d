import { sql, type Kysely } from 'kysely';
import { FLOW_RUN_TASK } from './enqueue-flow-runs.ts';

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

/** An action flow run still in the job queue: waiting, running, or waiting for its next attempt. */
export interface QueuedFlowRun {
  job_id: string;
  state: 'queued' | 'running' | 'retrying';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string;
}

/** A flow's run log (newest first; step data was masked when it was written) and its queued runs. */
export async function readFlowRuns(db: Kysely<any>, flow: string, limit: number): Promise<{ runs: FlowRun[]; queued: QueuedFlowRun[] }> {
  const runs = await sql<FlowRun>`select a.id, a.timestamp, a."user",
        r.data->>'status' as status, r.data->'trigger' as trigger, r.data->'steps' as steps
      from tessera_activity a left join tessera_revisions r on r.activity = a.id
     where a.collection = 'tessera_flows' and a.action = 'run' and a.item = ${flow}
     order by a.id desc limit ${limit}`.execute(db);
  const queued = await sql<QueuedFlowRun>`select j.id::text as job_id,
        case when j.locked_at is not null then 'running' when j.attempts > 0 then 'retrying' else 'queued' end as state,
        j.attempts, j.max_attempts, j.last_error, j.run_at
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${FLOW_RUN_TASK} and j.payload->>'flow' = ${flow} order by j.id`.execute(db);
  return { runs: runs.rows, queued: queued.rows };
}
