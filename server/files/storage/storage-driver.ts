import type { Readable } from 'node:stream';
import { ForbiddenError } from '../../errors.ts';

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

/**
 * Keys come from ids and hashes, but `filename_disk` is a column a forged or restored row could set: every
 * driver refuses (403) a key that could leave its root — empty, absolute, `.`/`..` segments, empty
 * segments, backslashes, NUL or other control characters — before it touches storage.
 */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key === '' || key.length > 1024 || key.startsWith('/') || /[\\\x00-\x1f\x7f]/.test(key) || /^[a-z]:/i.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new ForbiddenError('The file\'s storage key is not allowed.', { reason: 'unsafe storage key' });
  }
}
