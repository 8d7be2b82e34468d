import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.ts';

/**
 * DATA_DIR/tessera.lock: which process serves the embedded database in DATA_DIR, and on which local
 * port, as JSON `{"pid":…,"port":…,"control":{"port":…,"token":…}}` (older versions wrote the bare pid).
 * PGlite allows one process per data folder; other processes (CLI commands) connect to the holder's port
 * instead of opening the files, and tell it of schema changes through its control port (embedded-control.ts).
 * The file is readable by its owner only: the control token is in it.
 */
const LOCK_FILE = 'tessera.lock';

/** Pool size of a CLI command attached to a running embedded server (its socket server allows one more, for the migrator). */
export const CLI_CONNECTIONS = 2;

/** Where a serving process takes notices from the CLI: a 127.0.0.1 port and the token it requires. */
export interface LockControl {
  port: number;
  token: string;
}

/** The holder of a DATA_DIR: its process id, once it listens its database port, once it serves its control port. */
export interface EmbeddedLock {
  pid: number;
  port: number | null;
  control: LockControl | null;
}

function parseControl(value: unknown): LockControl | null {
  const control = value as { port?: unknown; token?: unknown } | null | undefined;
  if (!control || !Number.isInteger(control.port) || typeof control.token !== 'string' || control.token === '') return null;
  return { port: control.port as number, token: control.token };
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
  if (/^\d+$/.test(text)) lock = { pid: Number(text), port: null, control: null };
  else {
    try {
      const parsed = JSON.parse(text) as { pid?: unknown; port?: unknown; control?: unknown };
      lock = { pid: Number(parsed.pid), port: Number.isInteger(parsed.port) ? (parsed.port as number) : null, control: parseControl(parsed.control) };
    } catch {
      return null;
    }
  }
  if (!Number.isInteger(lock.pid) || lock.pid <= 0 || lock.pid === process.pid || !isAlive(lock.pid)) return null;
  return lock;
}

/** The postgres:// URL of an embedded database served on 127.0.0.1:`port`. */
export function embeddedUrl(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** A lock this process holds: record the ports once listening, release on close. */
export interface HeldLock {
  setPort(port: number): void;
  /** Records (or, with null, withdraws) where this process takes notices from CLI commands. */
  setControl(control: LockControl | null): void;
  release(): void;
}

/** Takes the lock of `dataDir`, refusing when another live process holds it (a second PGlite would corrupt it). */
export function acquireLock(dataDir: string): HeldLock {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const holder = readLiveLock(dataDir);
  if (holder) throw new ConfigError([`DATA_DIR: the embedded database in ${dataDir} is in use by process ${holder.pid}`]);
  const state: EmbeddedLock = { pid: process.pid, port: null, control: null };
  // Written aside and renamed into place: a command reading the lock meanwhile sees the old or the new
  // state, never a half-written file (which it would take for no lock at all).
  const pending = `${lockPath}.${process.pid}`;
  const write = () => {
    writeFileSync(pending, JSON.stringify(state), { mode: 0o600 });
    // A file left by a killed process of the same id keeps its old mode through writeFileSync.
    chmodSync(pending, 0o600);
    renameSync(pending, lockPath);
  };
  write();
  return {
    setPort(port) {
      state.port = port;
      write();
    },
    setControl(control) {
      state.control = control;
      write();
    },
    release: () => rmSync(lockPath, { force: true }),
  };
}
