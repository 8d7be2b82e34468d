import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { eventAccountability, type EventAccountability, type WriteTransaction } from '../events/event-names.ts';
import { InvalidPayloadError } from '../errors.ts';
import { OPERATIONS } from './operations/index.ts';
import type { FlowData, FlowRow, OperationRow } from './flow-types.ts';
import { maskSecrets } from './mask-secrets.ts';
import { render } from './template.ts';
import { ownValue } from '../own-keys.ts';

/** Guards against a resolve/reject cycle. */
const MAX_STEPS = 1000;

/** How a run ended: the last operation's data, and whether the chain ended on an unhandled rejection. */
export interface FlowResult {
  data: FlowData;
  last: unknown;
  rejected: boolean;
}

export async function loadFlow(app: AppContext, id: string): Promise<{ flow: FlowRow; operations: Map<string, OperationRow> } | null> {
  const db = app.servicesContext(systemAccountabilityLike()).db;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const flow = (await db.selectFrom('tessera_flows').select(['id', 'name', 'status', 'trigger', 'accountability', 'options', 'operation']).where('id', '=', id).executeTakeFirst()) as FlowRow | undefined;
  if (!flow) return null;
  const rows = (await db.selectFrom('tessera_operations').select(['id', 'key', 'type', 'options', 'resolve', 'reject']).where('flow', '=', id).execute()) as OperationRow[];
  return { flow, operations: new Map(rows.map((row) => [row.id, row])) };
}

function systemAccountabilityLike(): Accountability {
  return { user: null, role: null, admin: true, app: true, ip: null, userAgent: null, origin: null, session: null, share: null };
}

/** The environment variables FLOWS_ENV_ALLOW_LIST lets flows read as `$env`. */
function allowedEnv(app: AppContext): Record<string, string | undefined> {
  return Object.fromEntries(app.config.flows.envAllowList.map((name) => [name, process.env[name]]));
}

/**
 * Runs a flow's chain from its first operation: each result is stored under the operation's key and as
 * `$last`; a thrown error follows `reject` (its message as the data), a result follows `resolve`.
 */
export async function runFlow(app: AppContext, id: string, trigger: unknown, accountability: Accountability | null, options: RunOptions = {}): Promise<FlowResult> {
  const loaded = await loadFlow(app, id);
  if (!loaded) throw new InvalidPayloadError(`Flow "${id}" does not exist.`, { field: 'flow' });
  return runLoadedFlow(app, loaded.flow, loaded.operations, trigger, accountability, options);
}

/** How a run is started besides its trigger data. */
export interface RunOptions {
  /** How many flows called this one (the `trigger` operation); guards against flows calling each other forever. */
  depth?: number;
  /** A filter flow's write: its item operations run on that transaction and roll back with it. */
  transaction?: WriteTransaction;
}

/** The accountability an event carried, as a run's caller (`$trigger` permissions); null when nobody caused it. */
export function eventCaller(accountability: EventAccountability | null | undefined): Accountability | null {
  return accountability ? { ...systemAccountabilityLike(), ...accountability } : null;
}

export async function runLoadedFlow(app: AppContext, flow: FlowRow, operations: Map<string, OperationRow>, trigger: unknown, accountability: Accountability | null, options: RunOptions = {}): Promise<FlowResult> {
  const depth = options.depth ?? 0;
  if (depth > 10) throw new InvalidPayloadError('Flows call each other more than 10 levels deep.', { field: 'flow' });
  const data: FlowData = { $trigger: trigger, $last: trigger, $accountability: eventAccountability(accountability), $env: allowedEnv(app) };
  const steps: Array<{ operation: string; key: string; status: 'resolve' | 'reject'; options: unknown; data: unknown }> = [];
  let next = flow.operation;
  let rejected = false;
  for (let count = 0; next && count < MAX_STEPS; count++) {
    const operation = operations.get(next);
    if (!operation) break;
    const handler = ownValue(OPERATIONS, operation.type);
    const rendered = render(operation.options ?? {}, data) as Record<string, unknown>;
    let result: unknown;
    let ok = true;
    try {
      if (!handler) throw new Error(`Unknown operation type "${operation.type}".`);
      result = await handler(rendered, {
        app,
        data,
        accountability,
        flow,
        transaction: options.transaction,
        runFlow: (target, payload) => runFlow(app, target, payload, accountability, { depth: depth + 1, transaction: options.transaction }).then((run) => run.last),
      });
    } catch (error) {
      ok = false;
      result = errorData(error);
    }
    data[operation.key] = result;
    data.$last = result;
    steps.push({ operation: operation.id, key: operation.key, status: ok ? 'resolve' : 'reject', options: rendered, data: result });
    next = ok ? operation.resolve : operation.reject;
    rejected = !ok && !next;
  }
  if (flow.accountability === 'all' || flow.accountability === 'activity') await logRun(app, flow, accountability, flow.accountability === 'all' ? { status: rejected ? 'rejected' : 'resolved', trigger, steps } : null);
  return { data, last: data.$last, rejected };
}

function errorData(error: unknown): unknown {
  if (error instanceof Error) return { name: error.name, message: error.message, ...('code' in error ? { code: (error as { code: unknown }).code } : {}) };
  return error;
}

/**
 * One activity row per run (action `run`), with the steps as its revision when the flow logs `all`:
 * one statement, so a logged run costs the job one round trip.
 */
async function logRun(app: AppContext, flow: FlowRow, accountability: Accountability | null, revision: unknown): Promise<void> {
  const db = app.servicesContext(systemAccountabilityLike()).db;
  const activity = sql`insert into tessera_activity (action, collection, item, "user", ip, user_agent, origin, timestamp)
    values ('run', 'tessera_flows', ${flow.id}, ${accountability?.user ?? null}, ${accountability?.ip ?? null}, ${accountability?.userAgent ?? null}, ${accountability?.origin ?? null}, ${new Date()})
    returning id`;
  if (!revision) {
    await activity.execute(db);
    return;
  }
  await sql`with run as (${activity})
    insert into tessera_revisions (activity, collection, item, data, delta)
    select run.id, 'tessera_flows', ${flow.id}::varchar, ${JSON.stringify(maskSecrets(revision))}::jsonb, null from run`.execute(db);
}
