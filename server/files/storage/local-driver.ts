import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ForbiddenError } from '../../errors.ts';
import { assertSafeKey, type ByteRange, type StorageDriver } from './storage-driver.ts';

/** Files in a folder on this machine. Writes go to a temporary name and are renamed when complete. */
export class LocalStorageDriver implements StorageDriver {
  readonly location: string;
  readonly #root: string;

  constructor(location: string, root: string) {
    this.location = location;
    this.#root = path.resolve(root);
  }

  /** The file's path, which must resolve inside the root (403 otherwise, never a read outside it). */
  localPath(key: string): string {
    assertSafeKey(key);
    const resolved = path.resolve(this.#root, ...key.split('/'));
    if (!resolved.startsWith(this.#root + path.sep)) throw new ForbiddenError('The file\'s storage key is not allowed.', { reason: 'unsafe storage key' });
    return resolved;
  }

  async write(key: string, source: Readable): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(source, createWriteStream(temporary, { flags: 'wx' }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.localPath(key);
    // Open before returning, so a missing file fails here rather than mid-response.
    const stream = createReadStream(file, range ? { start: range.start, end: range.end } : {});
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.localPath(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    // Prefixes used are folder-shaped (`.transforms/<id>/`), so removing the folder removes them all.
    const trimmed = prefix.replace(/\/+$/, '');
    await rm(this.localPath(trimmed), { recursive: true, force: true });
  }
}
