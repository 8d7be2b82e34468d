import { DatabaseConnectionError } from '../errors.ts';

/** Which database a process tried to reach, and the setting (or lock file) that named it. */
export interface DatabaseTarget {
  /** The postgres:// URL connected to; its password is never shown. */
  url: string;
  /** Where the URL came from, as the person would look for it: `DB_URL`, or the embedded server's lock file. */
  source: string;
}

/** Error fields node-postgres and Node's sockets set (`code`: an errno name or a PostgreSQL SQLSTATE). */
interface ConnectError {
  code?: unknown;
  message?: unknown;
  hostname?: unknown;
  cause?: unknown;
}

/** `host:port` of `url` (PostgreSQL's default port when it names none); never its user or password. */
export function describeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'an unparseable address';
  }
}

/** The database `url` names (`postgres` when none). */
function databaseName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
  } catch {
    return 'postgres';
  }
}

/** Why connecting failed, in a few words, when `error` (or one of its causes) is a failure to connect at all. */
function connectFailureReason(error: unknown, url: string): string | null {
  for (let current = error as ConnectError | undefined, depth = 0; current && depth < 5; current = current.cause as ConnectError | undefined, depth++) {
    const code = typeof current.code === 'string' ? current.code : '';
    const message = typeof current.message === 'string' ? current.message : '';
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused (is PostgreSQL running, and on that port?)';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
      case 'EAI_NONAME':
        return `unknown host "${typeof current.hostname === 'string' ? current.hostname : describeAddress(url).replace(/:\d+$/, '')}"`;
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'host unreachable';
      case 'ETIMEDOUT':
        return 'no answer (timed out)';
      case 'ECONNRESET':
        return 'the server closed the connection';
      case '28P01':
        return `authentication failed (${message || 'wrong password'})`;
      case '28000':
        return `access refused (${message || 'no such user, or pg_hba.conf refuses it'})`;
      case '3D000':
        return `the database "${databaseName(url)}" does not exist`;
      case '53300':
        return 'too many connections';
      case '57P03':
        return 'the server is starting up or shutting down';
    }
    if (/timeout exceeded when trying to connect|connection timeout/i.test(message)) return 'no answer within DB_CONNECT_TIMEOUT';
    if (/server does not support SSL/i.test(message)) return 'the server does not support SSL (drop sslmode from DB_URL)';
  }
  return null;
}

/**
 * `error` as a DatabaseConnectionError naming the database and where it was configured ("cannot connect to
 * PostgreSQL at 127.0.0.1:5999 (DB_URL): connection refused") when it is a failure to connect; else null.
 */
export function connectionError(error: unknown, target: DatabaseTarget): DatabaseConnectionError | null {
  if (error instanceof DatabaseConnectionError) return error;
  const reason = connectFailureReason(error, target.url);
  if (!reason) return null;
  return new DatabaseConnectionError(`cannot connect to PostgreSQL at ${describeAddress(target.url)} (${target.source}): ${reason}`, { cause: error });
}
