import type { Context } from 'koa';
import { matchesIfNoneMatch } from '../cache/etag.ts';
import { PreconditionFailedError } from '../errors.ts';
import type { Query } from '../query/types.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import { etagOf, parseIfMatch, type ExpectedVersions } from '../services/items/expected-versions.ts';
import type { ItemsService } from '../services/items/items-service.ts';
import { addCurrentItems } from '../services/items/stale-items.ts';

/** The versions a write's If-Match header expects (undefined: none, or `*`); 400 for a malformed header. */
export function expectedVersions(ctx: Context): ExpectedVersions | undefined {
  return parseIfMatch(ctx.get('If-Match'));
}

/**
 * Whether an item's version alone decides what a read of it answers: only the row's own columns, no related
 * item (o2m lists, m2o objects, counts of related items). Only such a read may answer If-None-Match with 304.
 */
export function readsOwnRowOnly(collection: CollectionOverview, query: Query): boolean {
  if (query.deep || query.alias) return false;
  return (query.fields ?? ['*']).every((path) => {
    if (path === '*') return Object.values(collection.fields).every((field) => !field.alias || field.special.includes('no-data') || field.special.includes('group'));
    const field = collection.fields[path];
    return field !== undefined && !field.alias;
  });
}

/**
 * Sends an item's version as its ETag. A client holding it gets 304 when the version decides the answer
 * (readsOwnRowOnly); otherwise the response cache is told not to revalidate with it either. Returns true
 * when the answer is a 304.
 */
export function sendVersion(ctx: Context, version: string, revalidates: boolean): boolean {
  const etag = etagOf(version);
  ctx.set('ETag', etag);
  if (!revalidates) {
    ctx.state.etagRevalidates = false;
    return false;
  }
  if (!matchesIfNoneMatch(ctx.get('If-None-Match'), etag)) return false;
  ctx.status = 304;
  ctx.body = null;
  return true;
}

/**
 * Runs a write with If-Match; a 412 gets each stale item's current values as the caller may read them
 * (addCurrentItems). A single-item route also answers the current version as its ETag.
 */
export async function withCurrentItems<T>(ctx: Context, service: ItemsService, query: Query, single: boolean, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof PreconditionFailedError)) throw error;
    const conflicts = await addCurrentItems(service, error, query);
    if (single && conflicts.length === 1) ctx.set('ETag', conflicts[0]!.etag);
    throw error;
  }
}
