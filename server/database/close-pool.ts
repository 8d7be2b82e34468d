import type { Orm } from './create-orm.ts';

/** A pool connection still checked out when closing stopped waiting for it, as pg's client saw it. */
export interface ConnectionInUse {
  /** The server process of the connection (pg_stat_activity.pid); null when it never finished connecting. */
  backendPid: number | null;
  /** Whether the client had finished connecting. */
  connected: boolean;
  /** The statement the client was waiting on (null when none was sent). */
  running: string | null;
  /** Statements queued on the client behind it, not sent. */
  queued: string[];
  /** Whether the client would send its next statement at once (false: it waits for the server). */
  readyForQuery: boolean;
}

/** The parts of pg's Client read to describe and end a connection still in use (untyped in @types/pg). */
interface ClientInternals {
  processID?: number;
  readyForQuery: boolean;
  _connected?: boolean;
  _activeQuery?: { text?: string } | null;
  _queryQueue?: { text?: string }[];
  release?: (error?: Error) => void;
}

/** The parts of pg-pool read to find the connections checked out (untyped in @types/pg). */
interface PoolInternals {
  _clients: ClientInternals[];
  _idle: { client: ClientInternals }[];
}

const statementText = (query: { text?: string } | null | undefined): string | null => (query?.text ? query.text.slice(0, 200) : null);

/**
 * Closes the ORM and its pool. pg-pool's end waits for every checked-out connection to be released, so a
 * connection something forgot to release (or whose statement never returns) would hold shutdown forever:
 * after `graceMs` the connections still in use are released with an error (which ends them on the server)
 * and described, for the caller to log. Waits at most `graceMs` again after that.
 */
export async function closeOrmWithin(orm: Orm, graceMs: number): Promise<ConnectionInUse[]> {
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<PoolInternals> };
  const pool = await connection.getNativeClient().catch(() => null);
  const closing = orm.close(true);
  if ((await within(closing, graceMs)) || !pool) return [];
  const idle = new Set(pool._idle.map((item) => item.client));
  const inUse = pool._clients.filter((client) => !idle.has(client));
  const described = inUse.map((client) => ({
    backendPid: client.processID ?? null,
    connected: client._connected === true,
    running: statementText(client._activeQuery),
    queued: (client._queryQueue ?? []).map((query) => statementText(query) ?? '(no text)'),
    readyForQuery: client.readyForQuery,
  }));
  for (const client of inUse) {
    const release = client.release;
    if (!release) continue;
    // The holder's own release later is a no-op, so its statement fails with the connection's end (pg-pool,
    // ending, removes a client released with an error and ends its connection, cutting a statement running on it).
    client.release = () => undefined;
    release(new Error('the database is closing'));
  }
  await within(closing, graceMs);
  return described;
}

/** Whether `work` resolves within `ms` (its rejection is thrown). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    work.then(() => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return outcome;
}
