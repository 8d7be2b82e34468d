import { spawnCli, type RunningCli } from '../../helpers/cli.ts';

/** The first administrator every spawned instance seeds (once, whichever starts first). */
export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

/** A `tessera start` process serving HTTP on a port of its own. */
export interface Instance {
  cli: RunningCli;
  url: string;
}

/** Spawns `tessera start` in `dir` and resolves once it listens; `env` adds to (and overrides) the defaults. */
export async function startInstance(dir: string, env: Record<string, string>): Promise<Instance> {
  const cli = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env } });
  const [, port] = await cli.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
  return { cli, url: `http://127.0.0.1:${port}` };
}

/** Spawns a standalone `tessera worker` and resolves once it works on the job queue. */
export async function startJobWorker(dir: string, env: Record<string, string>): Promise<RunningCli> {
  // Info level: the worker says "job worker started" once its queue runner is up.
  const cli = spawnCli(['worker'], { cwd: dir, env: { ...env, LOG_LEVEL: 'info' } });
  await cli.waitFor(/job worker started/);
  return cli;
}

/** One answer: its status, its JSON body (null when empty) and its headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One JSON request to `base + url`, as a client sends it. */
export async function call(base: string, method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
  const response = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The `data` of a request that must answer 200. */
export async function ok(base: string, method: string, url: string, token: string, body?: unknown): Promise<any> {
  const response = await call(base, method, url, token, body);
  if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A flow with one operation, written through `base` as a client would; resolves when the last write is acknowledged. */
export async function createFlow(base: string, token: string, flow: Record<string, unknown>, operation: Record<string, unknown>): Promise<string> {
  const { id } = await ok(base, 'POST', '/flows', token, { status: 'active', ...flow });
  const created = await ok(base, 'POST', '/operations', token, { key: 'only', position_x: 1, position_y: 1, flow: id, ...operation });
  await ok(base, 'PATCH', `/flows/${id}`, token, { operation: created.id });
  return id;
}
