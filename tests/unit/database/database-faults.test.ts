import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { classifyDatabaseFault, translateDatabaseFault } from '../../../server/database/database-faults.ts';

/** A server error as node-postgres reports it. */
function serverError(code: string, message: string): Error {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

describe('database faults', () => {
  it('calls a refused connection (the error node-postgres really gives) unavailable: 503 with Retry-After', async () => {
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:9/postgres', connectionTimeoutMillis: 1_000 });
    const error = await client.connect().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(classifyDatabaseFault(error)).toBe('unavailable');
    const translated = translateDatabaseFault(error)!;
    expect([translated.status, translated.code, translated.extensions.retryAfter]).toEqual([503, 'SERVICE_UNAVAILABLE', 5]);
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['53300', 'sorry, too many clients already'],
  ])('calls %s unavailable', (code, message) => {
    expect(classifyDatabaseFault(serverError(code, message))).toBe('unavailable');
  });

  it('finds the fault in a wrapped error and in pool and socket errors without a SQLSTATE', () => {
    expect(classifyDatabaseFault(new Error('query failed', { cause: serverError('57P01', 'terminating connection') }))).toBe('unavailable');
    expect(classifyDatabaseFault(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(classifyDatabaseFault(new Error('timeout exceeded when trying to connect'))).toBe('unavailable');
    expect(classifyDatabaseFault(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe('unavailable');
  });

  it('calls deadlocks and serialization failures conflicts (409), and leaves client errors and bugs alone', () => {
    expect(classifyDatabaseFault(serverError('40P01', 'deadlock detected'))).toBe('conflict');
    expect(translateDatabaseFault(serverError('40001', 'could not serialize access'))?.status).toBe(409);
    expect(classifyDatabaseFault(serverError('23505', 'duplicate key value'))).toBeNull();
    expect(classifyDatabaseFault(serverError('42703', 'column "x" does not exist'))).toBeNull();
    expect(classifyDatabaseFault(new TypeError('undefined is not a function'))).toBeNull();
  });
});
