import { describe, expect, it } from 'vitest';
import { connectionError, describeAddress } from '../../../server/database/connection-error.ts';
import { DatabaseConnectionError } from '../../../server/errors.ts';

const target = { url: 'postgres://app:Zq9-secret@db.example:6543/cms', source: 'DB_URL' };

/** An error shaped as node-postgres or a Node socket reports it. */
function failure(code: string, message = '', extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

describe('connectionError', () => {
  it.each([
    [failure('ECONNREFUSED', 'connect ECONNREFUSED'), 'connection refused'],
    [failure('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example', { hostname: 'db.example' }), 'unknown host "db.example"'],
    [failure('28P01', 'password authentication failed for user "app"'), 'authentication failed (password authentication failed for user "app")'],
    [failure('28000', 'role "app" does not exist'), 'access refused (role "app" does not exist)'],
    [failure('3D000', 'database "cms" does not exist'), 'the database "cms" does not exist'],
    [new Error('timeout exceeded when trying to connect'), 'no answer within DB_CONNECT_TIMEOUT'],
  ])('names the database, the setting and the reason (%s)', (error, reason) => {
    const named = connectionError(error, target);
    expect(named).toBeInstanceOf(DatabaseConnectionError);
    expect(named!.message).toMatch(new RegExp(`^cannot connect to PostgreSQL at db\\.example:6543 \\(DB_URL\\): ${reason.replace(/[()]/g, '\\$&')}`));
    expect(named!.message).not.toContain('Zq9-secret');
    expect(named!.cause).toBe(error);
  });

  it('finds the failure in a cause chain', () => {
    const wrapped = new Error('pool failed', { cause: failure('ECONNREFUSED') });
    expect(connectionError(wrapped, target)?.message).toContain('connection refused');
  });

  it('leaves other errors alone', () => {
    expect(connectionError(failure('42P01', 'relation "x" does not exist'), target)).toBeNull();
    expect(connectionError(new TypeError('x is not a function'), target)).toBeNull();
  });

  it('shows host and port only, the default port when none is given', () => {
    expect(describeAddress('postgres://u:p@h/db')).toBe('h:5432');
    expect(describeAddress('postgres://u:p@[::1]:7000/db')).toBe('[::1]:7000');
  });
});
