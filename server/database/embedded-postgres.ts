import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { acquireLock, CLI_CONNECTIONS, embeddedUrl, type LockControl } from './embedded-lock.ts';
import { JOB_CONNECTIONS } from '../jobs/job-queue.ts';

/** A running embedded PostgreSQL (PGlite) reachable over TCP on 127.0.0.1. */
export interface EmbeddedPostgres {
  /** postgres:// URL the ordinary driver connects to. */
  url: string;
  /** Records in the lock file where this process takes notices from CLI commands (null withdraws it). */
  setControl(control: LockControl | null): void;
  /** Stops accepting connections and closes the database files cleanly. */
  close(): Promise<void>;
}

/**
 * PostgreSQL settings for PGlite. Its defaults (shared_buffers 160 MB, maintenance_work_mem 64 MB) are
 * sized for a server; inside one Node process they are WebAssembly memory that is never given back.
 * The data files stay in the operating system's page cache either way. Figures: docs/operations.md.
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=16MB', 'temp_buffers=1MB', 'wal_buffers=1MB', 'maintenance_work_mem=16MB', 'max_connections=20'];

const startParams = () => [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting])];

/**
 * Creates the database files (initdb) in a short-lived child process. initdb runs a second PGlite and
 * its own WebAssembly module: about 500 MB that this process would otherwise keep as resident memory
 * long after (V8 frees it at some later collection), so the server would idle at 600+ MB after a first start.
 */
async function initializeInChildProcess(directory: string): Promise<void> {
  const script = `const { PGlite } = await import(process.argv[1]);
const db = await PGlite.create({ dataDir: process.argv[2], startParams: JSON.parse(process.argv[3]) });
await db.close();`;
  try {
    await promisify(execFile)(process.execPath, ['--liftoff-only', '--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), directory, JSON.stringify(startParams())], {
      maxBuffer: 16 * 2 ** 20,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`Could not create the embedded database in ${directory}: ${stderr || message}`, { cause: error });
  }
}

/**
 * Sockets the server may still count while their client has already let them go. A pool that closes an
 * idle connection and opens a new one at once can briefly exceed its own size here; the socket server
 * then answers "Too many connections" and the new client sees "Connection terminated unexpectedly"
 * (seen with the job worker on a busy machine). Every connection shares the one PGlite session, so
 * room for more sockets costs nothing.
 */
const CLOSING_HEADROOM = 16;

/**
 * Opens (creating on first use) the PGlite database in `dataDir/db` and serves it on a free local port
 * through pglite-socket, so the same PostgreSQL driver and SQL serve embedded and server deployments.
 */
export async function startEmbeddedPostgres(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
  const directory = path.join(dataDir, 'db');
  mkdirSync(directory, { recursive: true });
  const lock = acquireLock(dataDir);
  try {
    if (!existsSync(path.join(directory, 'PG_VERSION'))) await initializeInChildProcess(directory);
    // pg_trgm is registered so index advice can build trigram indexes here too; it loads on CREATE EXTENSION.
    const db = await PGlite.create({ dataDir: directory, startParams: startParams(), extensions: { pg_trgm } });
    // Room beyond this process's pool for the job worker and CLI commands run beside it (they connect through the lock's port).
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: maxConnections + CLI_CONNECTIONS + JOB_CONNECTIONS + CLOSING_HEADROOM });
    let port = 0;
    server.addEventListener('listening', (event) => {
      port = (event as CustomEvent<{ port: number }>).detail.port;
    });
    await server.start();
    lock.setPort(port);
    return {
      url: embeddedUrl(port),
      setControl: (control) => lock.setControl(control),
      async close() {
        await server.stop();
        await db.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
