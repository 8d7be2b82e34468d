import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, TESSERA_BIN } from '../../helpers/cli.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

/** Libraries a start must not load: each is loaded on first use (docs/performance.md, "Start and memory"). */
const LAZY = ['sharp', '@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/client-sesv2', 'nodemailer', 'graphql', 'graphql-http', 'openid-client', 'quickjs-emscripten', 'ioredis', 'rate-limiter-flexible', 'pino-pretty', 'exifr'];

// Records the package of every module the server process loads, CommonJS and ESM alike.
const HOOK = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
const seen = new Set();
registerHooks({ load(url, context, next) {
  const match = url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/);
  if (match && !seen.has(match[1])) { seen.add(match[1]); appendFileSync(process.env.LOADED_LOG, match[1] + '\\n'); }
  return next(url, context);
} });
`;

describe('what tessera start loads', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-lazy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /server/ping and a collection read without loading any on-first-use library; /graphql loads graphql', { timeout: 120_000 }, async () => {
    const database = await createMigratedDatabase();
    const hook = path.join(dir, 'hook.mjs');
    const log = path.join(dir, 'loaded.txt');
    writeFileSync(hook, HOOK);
    writeFileSync(log, '');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', hook, TESSERA_BIN, 'start'], { cwd: dir, env: cliEnv({ DB_URL: database.url, PORT: String(port), HOST: '127.0.0.1', LOADED_LOG: log, ADMIN_PASSWORD: 'lazy-password-1' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('Tessera is running')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await fetch(`http://127.0.0.1:${port}/server/ping`)).status).toBe(200);
      const login = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'lazy-password-1' }) });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      expect((await fetch(`http://127.0.0.1:${port}/collections`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      const loaded = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
      expect(loaded.has('koa')).toBe(true); // the hook sees the server's modules
      expect(LAZY.filter((name) => loaded.has(name))).toEqual([]);

      const graphql = await fetch(`http://127.0.0.1:${port}/graphql/system`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ __typename }' }) });
      expect(graphql.status).toBe(200);
      expect(readFileSync(log, 'utf8').split('\n')).toContain('graphql');
    } finally {
      child.kill('SIGTERM');
      await exited;
      await database.drop();
    }
  });
});
