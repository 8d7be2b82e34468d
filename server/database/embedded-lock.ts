import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.ts';

/**
 * DATA_DIR/tessera.lock: which process serves the embedded database in DATA_DIR, and on which local
 * port, as JSON `{"pid":…,"port":…}` (older versions wrote the bare pid). PGlite allows one process per
 * data folder; other processes (CLI commands) connect to the holder's port instead of opening the files.
 */
const LOCK_FILE = 'tessera.lock';

/** Pool size of a CLI command attached to a running embedded server (its socket server allows one more, for the migrator). */
export const CLI_CONNECTIONS = 2;

/** The holder of a DATA_DIR: its process id and, once it listens, its port. */
export interface EmbeddedLock {
  pid: number;
  port: number | null;
}

/** True when a process with this id is alive. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of `dataDir` when another live process holds it, else null. */
export function readLiveLock(dataDir: string): EmbeddedLock | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let lock: EmbeddedLock;
  if (/^\d+$/.test(text)) lock = { pid: Number(text), port: null };
  else {
    try {
      const parsed = JSON.parse(text) as { pid?: unknown; port?: unknown };
      lock = { pid: Number(parsed.pid), port: Number.isInteger(parsed.port) ? (parsed.port as number) : null };
    } catch {
      return null;
    }
  }
  if (!Number.isInteger(lock.pid) || lock.pid <= 0 || lock.pid === process.pid || !isAlive(lock.pid)) return null;
  return lock;
}

/**
 * The postgres:// URL of the embedded database another live process serves from `dataDir`, or null when
 * no process serves it (or it has not started listening yet).
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const lock = readLiveLock(dataDir);
  return lock?.port ? `postgres://postgres@127.0.0.1:${lock.port}/postgres` : null;
}

/** A lock this process holds: record the port once listening, release on close. */
export interface HeldLock {
  setPort(port: number): void;
  release(): void;
}

/** Takes the lock of `dataDir`, refusing when another live process holds it (a second PGlite would corrupt it). */
export function acquireLock(dataDir: string): HeldLock {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const holder = readLiveLock(dataDir);
  if (holder) throw new ConfigError([`DATA_DIR: the embedded database in ${dataDir} is in use by process ${holder.pid}`]);
  const write = (port: number | null) => writeFileSync(lockPath, JSON.stringify({ pid: process.pid, port }));
  write(null);
  return { setPort: (port) => write(port), release: () => rmSync(lockPath, { force: true }) };
}
