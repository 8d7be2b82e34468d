import { createHash } from 'node:crypto';
import type { Accountability } from '../auth/accountability.ts';
import type { PermissionSet } from '../permissions/types.ts';
import { parseQuery } from '../query/parse-query.ts';
import { dynamicValuesIn, type AnswerDependence } from './answer-dependence.ts';

/** Query parameters that say who is calling, not what is asked (the identity part of the key covers them). */
const IDENTITY_PARAMS = new Set(['access_token']);

/** The query string with its parameters sorted (name, then value) and credentials left out. */
export function normalisedQuery(querystring: string): string {
  const params = [...new URLSearchParams(querystring)].filter(([name]) => !IDENTITY_PARAMS.has(name));
  params.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return new URLSearchParams(params).toString();
}

const dependenceOf = new WeakMap<PermissionSet, AnswerDependence>();

/** How a role's rules depend on who calls and when. */
function ruleDependence(permissions: PermissionSet): AnswerDependence {
  const known = dependenceOf.get(permissions);
  if (known) return known;
  const found = dynamicValuesIn([...permissions.values()].map((permission) => [permission.permissions, permission.fields === '*' ? '*' : [...permission.fields]]));
  dependenceOf.set(permissions, found);
  return found;
}

/**
 * Whether the query, percent-decoded, could hold a `$` anywhere a parser would see one: literally or as the
 * JSON escape `\u0024` (the only other way JSON writes it). Without either, no parameter can name a
 * variable and the parse is skipped.
 */
function mayNameVariable(query: string): boolean {
  let text: string;
  try {
    text = decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return text.includes('$') || text.includes('\\u0024');
}

/** Queries already judged (the same few queries repeat: that is what the cache is for), oldest first out. */
const judged = new Map<string, AnswerDependence | null>();
const JUDGED_MAX = 1000;

/**
 * The dynamic values a query names, read from the query as the read will see it: parsed by the read's own
 * parser (percent-decoding, bracket syntax, JSON with its escapes — `\u0024CURRENT_USER` is `$CURRENT_USER`),
 * and every other parameter's decoded value, JSON looked into. Never from the raw text, where an escape
 * hides a variable. Null when the query does not parse (its read answers 400, which is never cached).
 */
export function queryDependence(query: string): AnswerDependence | null {
  if (!mayNameVariable(query)) return { user: false, now: false };
  if (judged.has(query)) return judged.get(query)!;
  let found: AnswerDependence | null;
  try {
    const ofParsed = dynamicValuesIn(parseQuery(query));
    const ofParameters = dynamicValuesIn([...new URLSearchParams(query)]);
    found = { user: ofParsed.user || ofParameters.user, now: ofParsed.now || ofParameters.now };
  } catch {
    found = null;
  }
  judged.set(query, found);
  if (judged.size > JUDGED_MAX) judged.delete(judged.keys().next().value!);
  return found;
}

/**
 * The part of the key that stands for the caller: what decides which rows and fields it may read. Callers
 * with the same role and flags share entries unless the (parsed) query reads `$CURRENT_USER`, or `byUser`
 * says the answer is the caller's own (an earlier read of it noted so), which adds the user; `$NOW` in a
 * rule or the query makes the read uncacheable (null), as its answer changes by itself. Public callers share
 * one identity. Share sessions are never cached (their reach is per share).
 * A rule that reads `$CURRENT_USER` adds the user in two ways. `rules: 'by-role'` (compiled reads, whose
 * statements hold the rule's values): whenever any rule of the role reads it. `rules: 'as-read'` (the
 * response cache): only when a read resolves it, which the read notes (answer-dependence.ts) — so two
 * editors share the answers of collections whose rules never name them, whatever their activity or
 * notification rules say.
 */
export function permissionIdentity(accountability: Accountability, permissions: PermissionSet | null, query: string, byUser = false, rules: 'by-role' | 'as-read' = 'by-role'): string | null {
  if (accountability.share) return null;
  const asked = query === '' ? { user: false, now: false } : queryDependence(query);
  if (asked === null || asked.now) return null;
  const flags = `${accountability.role ?? 'public'}|${accountability.admin ? 'admin' : ''}|${accountability.app ? 'app' : ''}`;
  const dependence = permissions ? ruleDependence(permissions) : { user: false, now: false };
  if (dependence.now) return null;
  const byRule = rules === 'by-role' && dependence.user;
  return byUser || byRule || asked.user ? `${flags}|${accountability.user ?? ''}` : flags;
}

/** The entry key of one read: method, path, normalised query and the caller's identity. */
export function cacheKey(method: string, path: string, query: string, identity: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${query}\n${identity}`).digest('base64url');
}
