import { ServiceUnavailableError, TransactionConflictError, type TesseraError } from '../errors.ts';

/** Seconds a client is asked to wait (Retry-After) when the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs of a server that is gone, restarting or full: admin/crash shutdown, "starting up",
 * connection exceptions (class 08) and too many connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08007', '08P01']);
/** Serialization failure and deadlock: the transaction lost a race and may simply run again. */
const CONFLICT_STATES = new Set(['40001', '40P01']);
/** Socket errors from node-postgres while connecting or mid-query. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres and pg-pool report a lost or unobtainable connection with these messages and no code. */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /encountered a connection error and is not queryable/i,
  /client was closed and is not queryable/i,
  /connection is closed/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export type DatabaseFault = 'unavailable' | 'conflict';

/** Errors and their causes (MikroORM and Kysely may wrap the driver's error). */
function* chain(error: unknown): Generator<{ code?: unknown; message?: unknown; errors?: unknown }> {
  const seen = new Set<unknown>();
  for (let current = error as { cause?: unknown } | undefined; current && typeof current === 'object' && !seen.has(current); current = current.cause as typeof current) {
    seen.add(current);
    yield current as { code?: unknown; message?: unknown };
    // AggregateError: node's happy-eyeballs connect reports one ECONNREFUSED per address.
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) for (const item of inner) if (item && typeof item === 'object') yield item;
  }
}

/** Whether `error` means the database is out of reach ('unavailable') or the transaction lost a race ('conflict'). */
export function classifyDatabaseFault(error: unknown): DatabaseFault | null {
  for (const current of chain(error)) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (CONFLICT_STATES.has(code)) return 'conflict';
    if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return 'unavailable';
    const message = typeof current.message === 'string' ? current.message : '';
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
  }
  return null;
}

/** The client error for a database fault: 503 SERVICE_UNAVAILABLE (with Retry-After) or 409 TRANSACTION_CONFLICT. */
export function translateDatabaseFault(error: unknown): TesseraError | null {
  switch (classifyDatabaseFault(error)) {
    case 'unavailable':
      return new ServiceUnavailableError('The database is unavailable; try again shortly.', { service: 'database', retryAfter: DATABASE_RETRY_AFTER_SECONDS }, { cause: error });
    case 'conflict':
      return new TransactionConflictError('The write collided with concurrent writes to the same items; try again.', {}, { cause: error });
    default:
      return null;
  }
}
