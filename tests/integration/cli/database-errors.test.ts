import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli, type CliResult } from '../../helpers/cli.ts';
import { SERVER_URL, uniqueDatabaseName } from '../../helpers/postgres.ts';

afterAll(() => killSpawned());

const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-db-errors-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The password every DB_URL here carries: it must never appear in any output. */
const PASSWORD = 'Zq9-never-shown-7xK';

/** A 127.0.0.1 port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs a command and returns its result and how long it took. */
async function timed(args: string[], env: Record<string, string>): Promise<CliResult & { ms: number }> {
  const started = performance.now();
  const result = await runCli(args, { cwd, env: { PORT: '0', HOST: '127.0.0.1', ...env } });
  return { ...result, ms: performance.now() - started };
}

function expectNamedFailure(result: CliResult, message: string | RegExp): void {
  const output = result.stdout + result.stderr;
  expect(result.code).toBe(1);
  if (typeof message === 'string') expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
  expect(output).not.toContain('Unexpected error');
  expect(output).not.toContain(PASSWORD);
}

describe('a database that cannot be reached is named, with DB_URL, and never with its password', () => {
  let port: number;
  const server = new URL(SERVER_URL);
  beforeAll(async () => {
    port = await closedPort();
  });

  for (const command of [['migrate'], ['start'], ['users', 'list']]) {
    it(`tessera ${command.join(' ')} on a closed port exits 1 quickly, naming PostgreSQL, the address and DB_URL`, { timeout: 60_000 }, async () => {
      const result = await timed(command, { DB_URL: `postgres://app:${PASSWORD}@127.0.0.1:${port}/tessera` });
      expectNamedFailure(result, `cannot connect to PostgreSQL at 127.0.0.1:${port} (DB_URL): connection refused`);
      // No retries or waits on a refused connection: the time is the CLI's own start (and start's admin check).
      expect(result.ms).toBeLessThan(30_000);
    });
  }

  it('an unknown user is an access refusal naming the user', { timeout: 30_000 }, async () => {
    const url = `postgres://no_such_role_h29:${PASSWORD}@${server.host}/postgres`;
    const result = await timed(['migrate'], { DB_URL: url });
    expectNamedFailure(result, new RegExp(`cannot connect to PostgreSQL at ${server.hostname}:${server.port || 5432} \\(DB_URL\\): access refused \\(.*no_such_role_h29`));
  });

  it('an unknown host is named', { timeout: 30_000 }, async () => {
    const result = await timed(['migrate'], { DB_URL: `postgres://app:${PASSWORD}@no-such-host.invalid:5432/tessera` });
    expectNamedFailure(result, 'cannot connect to PostgreSQL at no-such-host.invalid:5432 (DB_URL): unknown host "no-such-host.invalid"');
  });

  it('a database that does not exist is named with its server and DB_URL', { timeout: 30_000 }, async () => {
    const name = uniqueDatabaseName('tessera_missing');
    const url = new URL(SERVER_URL);
    url.pathname = `/${name}`;
    url.password = PASSWORD;
    const result = await timed(['users', 'list'], { DB_URL: url.href });
    expectNamedFailure(result, `PostgreSQL at ${server.hostname}:${server.port || 5432} (DB_URL): database "${name}" does not exist`);
  });

  it('a DB_URL that is no valid URL is refused by name without echoing its password', { timeout: 30_000 }, async () => {
    const result = await timed(['migrate'], { DB_URL: `postgres://app:${PASSWORD}@127.0.0.1:notaport/tessera` });
    expectNamedFailure(result, 'DB_URL: must be a valid URL');
  });

  it('a bad secret variable is named without its value', { timeout: 30_000 }, async () => {
    const result = await timed(['migrate'], { SECRET: PASSWORD, DB_URL: `postgres://app:x@127.0.0.1:${port}/tessera` });
    expectNamedFailure(result, 'SECRET: must be at least 32 characters');
  });
});
