import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { acquireLock, CLI_CONNECTIONS } from './embedded-lock.ts';
import { JOB_CONNECTIONS } from '../jobs/job-queue.ts';

/** A running embedded PostgreSQL (PGlite) reachable over TCP on 127.0.0.1. */
export interface EmbeddedPostgres {
  /** postgres:// URL the ordinary driver connects to. */
  url: string;
  /** Stops accepting connections and closes the database files cleanly. */
  close(): Promise<void>;
}

/**
 * Opens (creating on first use) the PGlite database in `dataDir/db` and serves it on a free local port
 * through pglite-socket, so the same PostgreSQL driver and SQL serve embedded and server deployments.
 */
export async function startEmbeddedPostgres(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
  const directory = path.join(dataDir, 'db');
  mkdirSync(directory, { recursive: true });
  const lock = acquireLock(dataDir);
  try {
    const db = await PGlite.create({ dataDir: directory });
    // Room beyond this process's pool for the job worker and CLI commands run beside it (they connect through the lock's port).
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: maxConnections + CLI_CONNECTIONS + JOB_CONNECTIONS + 1 });
    let port = 0;
    server.addEventListener('listening', (event) => {
      port = (event as CustomEvent<{ port: number }>).detail.port;
    });
    await server.start();
    lock.setPort(port);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
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
