import type { Context, Middleware, Next } from 'koa';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { recordAnswerDependence, type AnswerDependence } from '../cache/answer-dependence.ts';
import { cacheKey, normalisedQuery, permissionIdentity } from '../cache/cache-key.ts';
import { matchesIfNoneMatch, strongEtag } from '../cache/etag.ts';
import { recordStatements } from '../cache/statement-recorder.ts';
import { collectionsNamed, writesOf } from '../cache/touched-tables.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { isSecretKeyName } from '../secret-key-names.ts';

/** Read routes whose JSON answers are cached: items and the system collections' item routes. */
const CACHEABLE_PATH =
  /^\/(?:items\/[^/]+|users|roles|permissions|files|folders|activity|revisions|presets|settings|comments|versions|flows|operations|webhooks|notifications|dashboards|panels|translations|shares|collections|fields|relations)(?:\/[^/]+){0,2}\/?$/;
/**
 * Never shared or kept: answers about the caller itself (`/users/me`, `/permissions/me`), share info, and the
 * automation collections, whose options and headers may hold credentials in shapes no member name reveals
 * (`{ "header": "Authorization", "value": … }`).
 */
const NEVER_CACHED = /\/me(?:\/|$)|^\/shares\/info|^\/(?:webhooks|flows|operations)(?:\/|$)|^\/items\/tessera_(?:webhooks|flows|operations)(?:\/|$)/;
/** A string member (PostgreSQL's JSON text puts spaces around the colon) whose value is not the concealed mask. */
const SECRET_MEMBER = /"([^"\\]{1,64})"\s*:\s*"(?!\*{10}")/g;

/**
 * The type of the entry kept under a read's shared key once an answer to it turned out to be the caller's own
 * (it resolved `$CURRENT_USER` somewhere, or its route said so): later callers look under their own key.
 */
const VARIES_BY_USER = 'application/x-tessera-varies-by-user';

const tablesOf = new WeakMap<SchemaOverview, ReadonlySet<string>>();

function tables(schema: SchemaOverview): ReadonlySet<string> {
  let known = tablesOf.get(schema);
  if (!known) {
    known = new Set(Object.values(schema.collections).filter((collection) => collection.table).map((collection) => collection.collection));
    tablesOf.set(schema, known);
  }
  return known;
}

/** The collection a cacheable path addresses (its entries are tagged with it even if no SQL named it). */
function pathCollection(path: string): string {
  const [first, second] = path.split('/').filter(Boolean);
  return first === 'items' ? second! : `tessera_${first}`;
}

/** Member names already judged (the same few names repeat on every item of a page). */
const secretNames = new Map<string, boolean>();

function carriesSecret(body: string): boolean {
  for (const match of body.matchAll(SECRET_MEMBER)) {
    const name = match[1]!;
    let secret = secretNames.get(name);
    if (secret === undefined) {
      secret = isSecretKeyName(name);
      if (secretNames.size < 10_000) secretNames.set(name, secret);
    }
    if (secret) return true;
  }
  return false;
}

/** The JSON text of a response body, or null when it is not JSON text this middleware can keep. */
function jsonBody(ctx: Context): string | null {
  if (ctx.status !== 200 || !ctx.response.is('json')) return null;
  if (ctx.response.get('Set-Cookie') || ctx.response.get('Content-Disposition')) return null;
  const body: unknown = ctx.body;
  if (typeof body === 'string') return body;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return null;
  const text = JSON.stringify(body);
  ctx.body = text;
  ctx.type = 'application/json';
  return text;
}

function cacheControl(ctx: Context, app: AppContext, accountability: Accountability): string {
  const sMaxAge = app.config.cache.sMaxAge;
  if (!accountability.user && sMaxAge !== null) return `public, max-age=0, s-maxage=${sMaxAge}`;
  return `${accountability.user ? 'private' : 'public'}, no-cache`;
}

/** Marks a kept validator that must not answer If-None-Match (an item version of a read with related items). */
const NO_REVALIDATION = '!';

/**
 * The validator of an answer, as kept: the item version its route set (docs/collaboration.md), or the body's hash.
 * A route's version that does not decide the whole answer is kept marked, so it never turns into a 304.
 */
function validatorOf(ctx: Context, body: string): string {
  const version = ctx.response.get('ETag');
  if (!version) return strongEtag(body);
  return ctx.state.etagRevalidates === false ? `${NO_REVALIDATION}${version}` : version;
}

/** Sends `body` (or 304 when the client holds it already) with its validator. */
function answer(ctx: Context, validator: string, type: string, body: string | Buffer): void {
  const revalidates = !validator.startsWith(NO_REVALIDATION);
  const etag = revalidates ? validator : validator.slice(NO_REVALIDATION.length);
  ctx.set('ETag', etag);
  if (revalidates && matchesIfNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = 200;
  ctx.type = type;
  ctx.body = body;
}

/** Validators of JSON bytes a route keeps and sends again (controllers/shared-list-body.ts): each hashed once. */
const keptEtags = new WeakMap<Buffer, string>();

/**
 * Answers JSON bytes with their validator (or 304). They are not stored: the route keeps them already, per
 * schema overview and visibility (`GET /fields` of a large project is megabytes). False for any other body.
 */
function answerKeptBytes(ctx: Context): boolean {
  const body: unknown = ctx.body;
  if (ctx.status !== 200 || !Buffer.isBuffer(body) || !ctx.response.is('json')) return false;
  let etag = keptEtags.get(body);
  if (etag === undefined) keptEtags.set(body, (etag = strongEtag(body)));
  answer(ctx, etag, 'application/json', body);
  return true;
}

/** Gives an uncached JSON answer its ETag (and turns it into a 304 when the client holds it). */
function withValidator(ctx: Context): void {
  if (answerKeptBytes(ctx)) return;
  const body = jsonBody(ctx);
  if (body !== null) answer(ctx, validatorOf(ctx, body), 'application/json', body);
}

/**
 * The response cache (docs/cache.md). Reads of items and system collections are answered from the cache
 * under a key of path, normalised query and the caller's permission identity, tagged with every collection
 * their SQL named. Every other request records the statements it ran and, once it has finished (its
 * transactions committed, its answer not yet sent), purges what they changed, so no later request on any
 * instance can read the old answer. With the cache off it does nothing.
 */
export function responseCache(app: AppContext): Middleware {
  return async (ctx, next) => {
    const cache = app.responseCache;
    // Off, nothing is hashed: an ETag costs a SHA-1 of the body (~0.05–0.09 ms for a 44 KB page, about a
    // tenth of an uncached list_100's server time) and saves no database work. (app.ts installs this
    // middleware only with the cache on; this covers an app built around it.)
    if (!cache.enabled) return next();
    // A SEARCH with `keys` carries part of its query outside the URL, which the cache key is made of.
    const cacheable = ctx.method === 'GET' && !ctx.state.searchKeys && CACHEABLE_PATH.test(ctx.path) && !NEVER_CACHED.test(ctx.path);
    if (!cacheable) {
      await purgeAfter(app, ctx, next);
      return;
    }

    const accountability = ctx.state.accountability as Accountability;
    if (app.config.cache.skipAllowed && /\bno-store\b/i.test(ctx.get('Cache-Control'))) {
      await purgeAfter(app, ctx, next);
      withValidator(ctx);
      ctx.set('Cache-Control', 'no-store');
      return;
    }
    const query = normalisedQuery(ctx.querystring);
    const permissions = accountability.admin ? null : await app.permissions.forRole(accountability.role, accountability.app);
    // A rule's `$CURRENT_USER` separates users only for the reads that resolve it (noted while they run).
    const identity = permissionIdentity(accountability, permissions, query, false, 'as-read');
    if (identity === null) {
      await purgeAfter(app, ctx, next);
      return withValidator(ctx);
    }

    const sharedKey = cacheKey(ctx.method, ctx.path, query, identity);
    const ownKey = (): string | null => {
      const own = permissionIdentity(accountability, permissions, query, true, 'as-read');
      return own === null || own === identity ? null : cacheKey(ctx.method, ctx.path, query, own);
    };
    let key = sharedKey;
    let hit = await cache.lookup(sharedKey);
    if (hit?.type === VARIES_BY_USER) {
      key = ownKey() ?? sharedKey;
      hit = key === sharedKey ? null : await cache.lookup(key);
    }
    if (hit) {
      ctx.set('X-Cache', 'HIT');
      ctx.set('Cache-Control', cacheControl(ctx, app, accountability));
      answer(ctx, hit.etag, hit.type, hit.body);
      return;
    }

    const startedAt = await cache.begin();
    const statements = new Set<string>();
    const dependence: AnswerDependence = { user: false, now: false };
    const run = () => recordAnswerDependence(dependence, () => recordStatements(statements, next));
    const wrote = await purgeAfter(app, ctx, run, statements);
    ctx.set('X-Cache', 'MISS');
    if (answerKeptBytes(ctx)) {
      ctx.set('Cache-Control', cacheControl(ctx, app, accountability));
      return;
    }
    const body = jsonBody(ctx);
    if (body === null || carriesSecret(body)) return;
    const etag = validatorOf(ctx, body);
    ctx.set('Cache-Control', cacheControl(ctx, app, accountability));
    if (startedAt !== null && !wrote && !dependence.now && Buffer.byteLength(body) <= app.config.cache.maxEntrySize) {
      const tags = collectionsNamed(statements, tables(await app.schema.get()));
      tags.add(pathCollection(ctx.path));
      if (dependence.user && key === sharedKey) {
        key = ownKey() ?? sharedKey;
        if (key !== sharedKey) await cache.store(sharedKey, { etag: '', type: VARIES_BY_USER, body: '' }, tags, startedAt);
      }
      await cache.store(key, { etag, type: 'application/json', body }, tags, startedAt);
    }
    answer(ctx, etag, 'application/json', body);
  };
}

/**
 * Runs the request while recording its statements; afterwards (also when it failed: a failure after a
 * commit is possible) purges whatever they wrote. Returns whether they wrote anything.
 */
async function purgeAfter(app: AppContext, ctx: Context, next: Next, recorded?: Set<string>): Promise<boolean> {
  const statements = recorded ?? new Set<string>();
  try {
    if (recorded) await next();
    else await recordStatements(statements, next);
  } finally {
    const schema = statements.size > 0 ? await app.schema.get().catch(() => null) : null;
    const writes = writesOf(statements, schema ? tables(schema) : null);
    if (writes.all) await app.responseCache.purgeAll();
    else if (writes.collections.size > 0) await app.responseCache.purgeWritten(writes.collections);
    if (writes.all || writes.collections.size > 0) ctx.state.cacheWrote = true;
  }
  return ctx.state.cacheWrote === true;
}
