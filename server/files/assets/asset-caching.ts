import { createHash } from 'node:crypto';
import type { Accountability } from '../../auth/accountability.ts';

/** The query parameter naming the version of the file a URL shows: its `modified_on`. */
export const VERSION_PARAM = 'modified';

/**
 * The validator of an asset answer: a hash of what decides its bytes — the stored object (a replaced file
 * gets a new `filename_disk`), its size, the file's `modified_on` (which every change of the file moves, the
 * image editor's included) and, for a transformed image, its transformation (`variant`: the cached copy's key).
 */
export function assetEtag(file: { filename_disk: string; modified_on: Date | string }, size: number, variant = ''): string {
  return createHash('sha1').update(`${file.filename_disk}:${size}:${new Date(file.modified_on).getTime()}:${variant}`).digest('hex').slice(0, 27);
}

/** Whether `given` (the `modified` parameter) names the file's current `modified_on`. */
function namesCurrentVersion(given: unknown, modifiedOn: Date | string): boolean {
  if (typeof given !== 'string' || given === '') return false;
  const at = Date.parse(given);
  return Number.isFinite(at) && at === new Date(modifiedOn).getTime();
}

/**
 * `Cache-Control` of an asset answer. At a URL naming the file's current version (`?modified=<modified_on>`,
 * what the admin uses) the answer cannot change, so clients keep it `maxAgeSeconds` without asking
 * (`immutable`); a later version has another URL. At any other URL (a bare `/assets/:id`, an old
 * `modified`) clients must revalidate on every use (`no-cache`): the ETag is tied to the content, so an
 * unchanged file costs a 304 without its bytes, and a replaced one is seen at once. `private` for signed-in
 * callers and shares, `public` for anonymous ones.
 */
export function assetCacheControl(accountability: Pick<Accountability, 'user' | 'share'>, query: Record<string, unknown>, modifiedOn: Date | string, maxAgeSeconds: number): string {
  const scope = accountability.user || accountability.share ? 'private' : 'public';
  if (maxAgeSeconds > 0 && namesCurrentVersion(query[VERSION_PARAM], modifiedOn)) return `${scope}, max-age=${maxAgeSeconds}, immutable`;
  return `${scope}, no-cache`;
}
