import type { Readable } from 'node:stream';

/** An inclusive byte range of a stored object. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * One storage location's backend. Keys are relative, `/`-separated paths; a write either stores the
 * whole object or nothing (a failed or aborted source leaves no object behind).
 */
export interface StorageDriver {
  /** The location's name, as stored in files.storage. */
  readonly location: string;
  /** Stores everything `source` yields under `key`, replacing an object already there. */
  write(key: string, source: Readable, contentType?: string): Promise<void>;
  /** Streams the object (or a range of it). */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size in bytes, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** A local file path for the key, when the driver has one (lets sharp read the file directly). */
  localPath?(key: string): string;
}

/** Keys come from ids and hashes, never from clients; this guard keeps a bug from escaping the root. */
export function assertSafeKey(key: string): void {
  if (key === '' || key.startsWith('/') || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
