import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, TESSERA_BIN } from '../../helpers/cli.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

/** Libraries a start must not load: each is loaded on first use (docs/performance.md, "Start and memory"); OpenTelemetry only with OTEL_* set. */
const LAZY = ['prom-client', 'marked', 'sharp', '@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/client-sesv2', 'nodemailer', 'graphql', 'graphql-http', 'openid-client', 'ldapts', '@node-saml/node-saml', '@xmldom/xmldom', 'quickjs-emscripten', 'ioredis', 'rate-limiter-flexible', 'pino-pretty', 'exifr', 'express', 'knex', '@modelcontextprotocol/sdk', '@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/context-async-hooks', '@opentelemetry/resources', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-trace-otlp-proto'];
/** Loaded with the first request to a router that needs them, the first request with a body (koa-body), the first socket or sign-in, or the first flow or panel write
 * (argon2 too, but this start seeds the administrator and so hashes a password). */
const LAZY_WITH_ROUTERS = ['koa-body', 'formidable', 'luxon', 'yaml', 'csv-parse', 'file-type', 'busboy', 'croner', '@otplib/plugin-crypto-noble', 'server/auth/auth-service.ts'];
/** Own modules a start must not load: every router but /server (server/app-routers.ts) and the flow and panel rules. */
const LAZY_OWN = ['server/controllers/items-controller.ts', 'server/controllers/auth-controller.ts', 'server/controllers/collections-controller.ts', 'server/controllers/schema-controller.ts', 'server/controllers/files-controller.ts', 'server/controllers/import-export-controller.ts', 'server/controllers/system-collections-controller.ts', 'server/controllers/utils-controller.ts', 'server/controllers/index-advice-controller.ts', 'server/flows/flows-controller.ts', 'server/insights/insights-controller.ts', 'server/openapi/openapi-controller.ts', 'server/graphql/graphql-controller.ts', 'server/webhooks/webhooks-controller.ts', 'server/flows/validate-flow.ts', 'server/insights/validate-panel-write.ts', 'server/flows/flow-engine.ts', 'server/snapshot/load-snapshot.ts', 'server/extensions/express-bridge.ts', 'server/extensions/load-extension.ts', 'server/extensions/directus-context.ts', 'server/observability/tracing.ts', 'server/observability/trace-requests.ts'];

// Records the package of every module the server process loads, CommonJS and ESM alike, and our own files.
const HOOK = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
const seen = new Set();
registerHooks({ load(url, context, next) {
  const match = url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/) ?? url.match(/\\/((?:server|cli)\\/[^?]+\\.ts)$/);
  if (match && !seen.has(match[1])) { seen.add(match[1]); appendFileSync(process.env.LOADED_LOG, match[1] + '\\n'); }
  return next(url, context);
} });
`;

describe('what tessera start loads', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-lazy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /server/ping without loading any router but /server or any on-first-use library; each loads on its first request', { timeout: 120_000 }, async () => {
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
      const atStart = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
      expect(atStart.has('server/controllers/server-controller.ts')).toBe(true); // the hook sees our own files
      expect([...LAZY, ...LAZY_WITH_ROUTERS, ...LAZY_OWN].filter((name) => atStart.has(name))).toEqual([]);

      const login = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'lazy-password-1' }) });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      expect((await fetch(`http://127.0.0.1:${port}/collections`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      const loaded = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
      expect(loaded.has('koa')).toBe(true); // the hook sees the server's modules
      expect(loaded.has('koa-body')).toBe(true); // the sign-in's body was parsed
      expect(LAZY.filter((name) => loaded.has(name))).toEqual([]);
      // Signing in and reading /collections loaded those two routers and no other.
      expect(['server/controllers/auth-controller.ts', 'server/controllers/collections-controller.ts'].filter((name) => !loaded.has(name))).toEqual([]);
      expect(LAZY_OWN.filter((name) => loaded.has(name) && !name.startsWith('server/controllers/auth-') && !name.startsWith('server/controllers/collections-'))).toEqual([]);
      // The first read of /items loads its router and answers as before.
      const items = await fetch(`http://127.0.0.1:${port}/items/tessera_no_such`, { headers: { authorization: `Bearer ${token}` } });
      expect(items.status).toBe(403);
      expect(readFileSync(log, 'utf8').split('\n')).toContain('server/controllers/items-controller.ts');

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
