import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../helpers/cli.ts';
import { eventually } from '../../helpers/eventually.ts';

const REPOSITORY = realpathSync(fileURLToPath(new URL('../../..', import.meta.url)));
const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-init-project-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** A shell running `command` in `cwd` as its own process group, so the test can stop all it started. */
function runShell(command: string, env: NodeJS.ProcessEnv) {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group has ended already.
    }
  };
  return { output: () => output, closed, stopGroup };
}

describe('a project made by `tessera init` runs with the command init prints', () => {
  let shell: ReturnType<typeof runShell> | undefined;
  afterAll(() => shell?.stopGroup('SIGKILL'));

  it('npm install links this Tessera without the network, npm start serves /server/ping, npx tessera runs it', { timeout: 240_000 }, async () => {
    const init = await runCli(['init', 'my blog', '--yes', '--admin-password', 'admin-password-1', '--port', '0'], { cwd });
    expect(init.stderr).not.toContain('Unexpected error');
    expect(init.code).toBe(0);
    const project = path.join(cwd, 'my blog');

    // The project depends on this checkout under the name chosen for publishing, never on npm's unrelated `tessera`.
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'my-blog', private: true, scripts: { start: 'tessera start' }, dependencies: { 'tessera-cms': `file:${REPOSITORY}` } });
    expect(manifest.dependencies).not.toHaveProperty('tessera');

    const printed = init.stdout.match(/^Start it: (.+)$/m)?.[1];
    expect(printed).toBe(`cd 'my blog' && npm install && npm start`);

    // Exactly the printed command, with npm forbidden to reach the network: a file: dependency is a link.
    shell = runShell(printed!, { ...cliEnv(), npm_config_offline: 'true' });
    const port = await eventually(async () => {
      const match = shell!.output().match(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
      if (!match) throw new Error(`not serving yet; output:\n${shell!.output()}`);
      return match[1];
    }, 180_000, 100);
    expect(lstatSync(path.join(project, 'node_modules/tessera-cms')).isSymbolicLink()).toBe(true);
    expect(realpathSync(path.join(project, 'node_modules/tessera-cms'))).toBe(REPOSITORY);

    const ping = await fetch(`http://127.0.0.1:${port}/server/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('pong');

    // npx finds the installed bin (offline: it could not fetch anything), here beside the running server.
    const users = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn('npx', ['tessera', 'users', 'list', '--json'], { cwd: project, env: { ...cliEnv(), npm_config_offline: 'true' }, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(users.code).toBe(0);
    expect(JSON.parse(users.stdout)).toEqual([expect.objectContaining({ email: 'admin@example.com' })]);

    shell.stopGroup('SIGTERM');
    await shell.closed;
    // The server has stopped once it released the embedded database's lock.
    await eventually(async () => expect(existsSync(path.join(project, 'data/tessera.lock'))).toBe(false), 30_000, 100);
  });
});
