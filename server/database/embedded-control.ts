import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AppContext } from '../app-context.ts';
import type { EmbeddedLock, LockControl } from './embedded-lock.ts';

/**
 * How a CLI command run beside an embedded server (attached through DATA_DIR/tessera.lock) tells that
 * server its schema changed, so the server serves the change on its next request without a restart.
 * With DB_URL and REDIS_URL the same notice travels through Redis (schema-sync.ts); an embedded server has
 * no Redis, so it listens on a 127.0.0.1 port of its own that the lock file names with a random token.
 */

/** The one notice: the schema (and so permissions and cached answers) changed outside this process. */
const SCHEMA_CHANGED_PATH = '/schema-changed';

/** How long a command waits for the server's answer: it rebuilds the schema overview before answering. */
const NOTICE_TIMEOUT_MS = 15_000;

/** A running control listener. */
export interface ControlListener {
  control: LockControl;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Serves `POST /schema-changed` on a free 127.0.0.1 port: with the lock's token it drops the schema
 * overview (permissions and cached responses go with it), reads it again and answers with the number of
 * collections now served, so the command can say for certain that the server picked the change up.
 */
export async function startControlListener(app: AppContext): Promise<ControlListener> {
  const token = randomBytes(32).toString('base64url');
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.url !== SCHEMA_CHANGED_PATH) return answer(404, { error: 'not found' });
    if (!tokenMatches(request.headers.authorization, token)) return answer(401, { error: 'wrong token' });
    app.schema.invalidate();
    app.schema.get().then(
      (overview) => {
        app.logger.info('schema changed by a command beside this server: schema reloaded');
        answer(200, { collections: Object.keys(overview.collections).length });
      },
      (error: unknown) => {
        app.logger.error({ err: error }, 'could not reload the schema after a command beside this server changed it');
        answer(500, { error: 'could not reload the schema' });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    control: { port, token },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What telling a running embedded server came to. */
export type SchemaNotice = { reloaded: true } | { reloaded: false; reason: string };

/** Tells the server holding `lock` that the schema changed and waits until it has reloaded it. */
export async function tellSchemaChanged(lock: EmbeddedLock): Promise<SchemaNotice> {
  if (!lock.control) return { reloaded: false, reason: 'its lock file names no control port (a Tessera version before this one)' };
  try {
    const response = await fetch(`http://127.0.0.1:${lock.control.port}${SCHEMA_CHANGED_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lock.control.token}` },
      signal: AbortSignal.timeout(NOTICE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok ? { reloaded: true } : { reloaded: false, reason: `it answered ${response.status}` };
  } catch (error) {
    return { reloaded: false, reason: (error as Error).name === 'TimeoutError' ? `no answer within ${NOTICE_TIMEOUT_MS / 1000} s` : 'its control port does not answer' };
  }
}
