import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { onEventsRecorded } from '../events/write-jobs.ts';
import { addJobs } from './add-jobs.ts';
import type { OutboxConsumers } from './outbox-consumers.ts';

/** Outbox events one relay statement moves into jobs. */
const BATCH = 500;
/** How long a nudge waits, so the events of writes close together become jobs in one statement. */
const NUDGE_DELAY_MS = 2;
/** The same while requests saturate the server: fewer, larger batches (the jobs wait anyway). */
const SATURATED_NUDGE_DELAY_MS = 250;
/** The relay also looks by itself this often: for events another process wrote, or a run that failed. */
const POLL_MS = 1_000;

/**
 * Moves up to BATCH committed outbox events into their jobs, in one statement and so one transaction:
 * the events are deleted and the jobs every registered consumer makes of them (webhook deliveries, action
 * flow runs) enqueued with one `add_jobs()` call, together or not at all. Rows another relay has locked are skipped, so with several
 * processes on one database each event becomes its jobs once. Returns how many events it moved.
 */
export async function relayOutbox(db: Kysely<any>, consumers: OutboxConsumers): Promise<number> {
  const moved = sql`moved`;
  const specs = await consumers.specs(moved);
  const { rows } = await sql<{ moved: string }>`with moved as (
      delete from tessera_automation.outbox
       where id in (select id from tessera_automation.outbox order by id limit ${BATCH} for update skip locked)
      returning *
    ), specs as (${specs}),
    jobs as (${addJobs(sql`select spec from specs order by event, kind`)})
    select (select count(*) from moved) as moved, (select count(*) from jobs) as jobs`.execute(db);
  return Number(rows[0]!.moved);
}

/** Whether the outbox holds any event (committed, or another relay's locked rows). */
async function outboxHasEvents(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ pending: boolean }>`select exists (select 1 from tessera_automation.outbox) as pending`.execute(db);
  return rows[0]!.pending;
}

/** A running relay. */
export interface OutboxRelay {
  /** Asks for a relay run soon (a write here has committed). */
  nudge(): void;
  /** Stops nudges and polls and waits for a run in progress. */
  stop(): Promise<void>;
  /** Relay statements run so far (each moves up to BATCH events). */
  readonly runs: number;
}

/**
 * Relays this process's outbox events as soon as their writes commit (a committed write that recorded
 * events nudges it; writes close together share one run; a write nobody listens to costs it nothing), and
 * every POLL_MS whatever the nudges.
 */
export function startOutboxRelay(app: AppContext, options: { pollMs?: number } = {}): OutboxRelay {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let runs = 0;

  const run = async (probe: boolean) => {
    try {
      // The poll first asks whether there is anything to move: the relay statement costs PostgreSQL
      // milliseconds even on an empty outbox (planning its joins and the add_jobs() call), the probe a tenth of one.
      if (probe && !(await outboxHasEvents(app.database.kysely()))) return;
      while (!stopped) {
        runs += 1;
        if ((await relayOutbox(app.database.kysely(), app.outbox)) < BATCH) break;
      }
    } catch (error) {
      if (!stopped) app.logger.warn({ err: error }, 'automation outbox: relay failed; retrying on the next write or poll');
    }
  };
  const start = (probe = false) => {
    if (stopped) return;
    if (running) {
      // A poll that finds a run in progress is dropped (the next poll probes again); a nudge is not, since
      // its write may have committed after the running statement took its snapshot.
      if (!probe) again = true;
      return;
    }
    running = run(probe).finally(() => {
      running = null;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = () => {
    if (stopped || timer) return;
    // The timer is forgotten as it fires, not when a run begins: a nudge that finds a run in progress only
    // sets `again`, and the schedule() after that run must be able to set a timer (else its events wait for the poll).
    timer = setTimeout(() => {
      timer = null;
      start();
    }, app.foreground.saturated ? SATURATED_NUDGE_DELAY_MS : NUDGE_DELAY_MS);
  };
  const off = onEventsRecorded(schedule);
  const poll = setInterval(() => start(true), options.pollMs ?? POLL_MS).unref();
  schedule();

  return {
    nudge: schedule,
    async stop() {
      stopped = true;
      off();
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await running;
    },
    get runs() {
      return runs;
    },
  };
}
