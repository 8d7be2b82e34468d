import type { AppContext } from '../app-context.ts';
import pLimit, { type LimitFunction } from 'p-limit';
import { StorageLocations } from './storage/storage-locations.ts';

/** What the file routes share within one process: the storage drivers and the transform limiter. */
export interface FilesRuntime {
  storage: StorageLocations;
  /** Bounds concurrent image transformations (ASSETS_TRANSFORM_MAX_CONCURRENT). */
  transforms: LimitFunction;
  /** Whether a transformation beyond the bound waits (ASSETS_TRANSFORM_QUEUE) rather than being refused with 503. */
  queueTransforms: boolean;
  /** Transformations under way by cache key, so identical concurrent requests share one. */
  inflight: Map<string, Promise<unknown>>;
}

const runtimes = new WeakMap<AppContext, FilesRuntime>();

/** The process's files runtime for an app context, created on first use. */
export function filesRuntime(app: AppContext): FilesRuntime {
  let runtime = runtimes.get(app);
  if (!runtime) {
    runtime = { storage: new StorageLocations(app.config), transforms: pLimit(app.config.assets.transformMaxConcurrent), queueTransforms: app.config.assets.transformQueue, inflight: new Map() };
    runtimes.set(app, runtime);
  }
  return runtime;
}

/** Closes the storage clients of an app context's files runtime, if it was ever used. */
export function closeFilesRuntime(app: AppContext): void {
  runtimes.get(app)?.storage.close();
  runtimes.delete(app);
}
