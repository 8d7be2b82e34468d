import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ServiceUnavailableError } from '../../errors.ts';
import type { FilesRuntime } from '../files-runtime.ts';
import { transformsPrefix } from '../storage/storage-keys.ts';
import type { ByteRange, StorageDriver } from '../storage/storage-driver.ts';
import type { TransformResult } from './run-transform.ts';
import type { Transform } from './transform-policy.ts';

/** Bumped when the transformation code changes what it produces, so old cached copies are not served. */
const CACHE_VERSION = 1;

/** Content an asset response serves: its size, and a reader for all or part of it. */
export interface AssetBody {
  size: number;
  read(range?: ByteRange): Promise<Readable>;
}

/**
 * Where a transformed copy is cached: next to the file, named by a hash of the stored content's name
 * and size and the complete transformation (so a replaced file never matches an old copy).
 */
export function transformCacheKey(file: { id: string; filename_disk: string; filesize: number | string | null }, transform: Transform): string {
  const digest = createHash('sha256').update(JSON.stringify([CACHE_VERSION, file.filename_disk, String(file.filesize), transform])).digest('hex').slice(0, 32);
  return `${transformsPrefix(file.id)}${digest}.${transform.format}`;
}

function fromBuffer(data: Buffer): AssetBody {
  return { size: data.length, read: async (range) => Readable.from([range ? data.subarray(range.start, range.end + 1) : data]) };
}

/**
 * The cached copy under `key`, or a new one: `produce` runs under the process's transform limit, at
 * most once at a time per key (concurrent requests for the same copy share it), and its result is
 * stored before it is served. Past the limit a new copy waits its turn, or, without the queue, is a
 * 503 SERVICE_UNAVAILABLE.
 */
export async function cachedTransform(runtime: FilesRuntime, driver: StorageDriver, key: string, produce: () => Promise<TransformResult>): Promise<{ body: AssetBody; cached: boolean }> {
  const existing = await driver.stat(key);
  if (existing) return { body: { size: existing.size, read: (range) => driver.read(key, range) }, cached: true };
  let pending = runtime.inflight.get(key) as Promise<Buffer> | undefined;
  if (!pending) {
    if (!runtime.queueTransforms && runtime.transforms.activeCount + runtime.transforms.pendingCount >= runtime.transforms.concurrency) {
      // Directus's answer past ASSETS_TRANSFORM_MAX_CONCURRENT, for deployments that want it (ASSETS_TRANSFORM_QUEUE=false).
      throw new ServiceUnavailableError('Service "files" is unavailable. Server too busy.', { service: 'files', retryAfter: 1 });
    }
    pending = runtime
      .transforms(async () => {
        const result = await produce();
        await driver.write(key, Readable.from([result.data]));
        return result.data;
      })
      .finally(() => runtime.inflight.delete(key));
    runtime.inflight.set(key, pending);
  }
  return { body: fromBuffer(await pending), cached: false };
}
