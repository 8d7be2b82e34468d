import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, TESSERA_BIN } from '../../helpers/cli.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

const READY = /Admin:\s+http:\/\/localhost:(\d+)\/admin/;

// The PATH a user's shell has: without the node_modules/.bin folders npx adds (they hold Node 24).
const userPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((folder) => !folder.includes('node_modules'))
  .join(path.delimiter);
const env = cliEnv({ PATH: userPath, HOST: '127.0.0.1', PORT: '0', ADMIN_PASSWORD: 'ops-password-1' });

const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when nothing listens on the port any more (we can bind it ourselves). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('bin/tessera started by the system Node (the launcher)', () => {
  it('runs on a Node older than 22.12, so the launcher path is what is tested', () => {
    const version = execFileSync('node', ['-p', 'process.versions.node'], { env }).toString().trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    expect(major < 22 || (major === 22 && minor < 12)).toBe(true);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s stops the server it started: the port is freed, no child survives, exit 0', { timeout: 90_000 }, async (signal) => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-launcher-'));
    try {
      const launcher = spawn('node', [TESSERA_BIN, 'start'], { cwd: dir, env: { ...env, DB_URL: database.url }, stdio: ['ignore', 'pipe', 'pipe'] });
      leftovers.push(launcher.pid!);
      let output = '';
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => launcher.on('exit', (code, sig) => resolve({ code, signal: sig })));
      const port = await new Promise<number>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk;
          const match = output.match(READY);
          if (match) resolve(Number(match[1]));
        };
        launcher.stdout.on('data', onData);
        launcher.stderr.on('data', onData);
        void exited.then(() => reject(new Error(`launcher exited early:\n${output}`)));
      });
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(launcher.pid)]).toString().trim().split(/\s+/).map(Number);
      expect(children).toHaveLength(1);
      const server = children[0]!;
      leftovers.push(server);
      expect((await fetch(`http://127.0.0.1:${port}/server/ping`)).status).toBe(200);

      launcher.kill(signal);
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(isAlive(server)).toBe(false);
      expect(await portIsFree(port)).toBe(true);
      expect(output).toContain('Tessera stopped.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
