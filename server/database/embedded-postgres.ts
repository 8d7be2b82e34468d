import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ConfigError } from '../errors.ts';

/** A running embedded PostgreSQL (PGlite) reachable over TCP on 127.0.0.1. */
export interface EmbeddedPostgres {
  /** postgres:// URL the ordinary driver connects to. */
  url: string;
  /** Stops accepting connections and closes the database files cleanly. */
  close(): Promise<void>;
}

const LOCK_FILE = 'tessera.lock';

/** True when a process with this id is alive. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite allows one process per data folder; a second one would corrupt it, so we refuse early. */
function acquireLock(directory: string): () => void {
  const lockPath = path.join(directory, LOCK_FILE);
  try {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new ConfigError([`DATA_DIR: the embedded database in ${directory} is in use by process ${holder}`]);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(lockPath, String(process.pid));
  return () => rmSync(lockPath, { force: true });
}

/**
 * Opens (creating on first use) the PGlite database in `dataDir/db` and serves it on a free local port
 * through pglite-socket, so the same PostgreSQL driver and SQL serve embedded and server deployments.
 */
export async function startEmbeddedPostgres(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
  const directory = path.join(dataDir, 'db');
  mkdirSync(directory, { recursive: true });
  const releaseLock = acquireLock(dataDir);
  try {
    const db = await PGlite.create({ dataDir: directory });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    let port = 0;
    server.addEventListener('listening', (event) => {
      port = (event as CustomEvent<{ port: number }>).detail.port;
    });
    await server.start();
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async close() {
        await server.stop();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
