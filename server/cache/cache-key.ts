import { createHash } from 'node:crypto';
import type { Accountability } from '../auth/accountability.ts';
import type { PermissionSet } from '../permissions/types.ts';

/** Query parameters that say who is calling, not what is asked (the identity part of the key covers them). */
const IDENTITY_PARAMS = new Set(['access_token']);

/** The query string with its parameters sorted (name, then value) and credentials left out. */
export function normalisedQuery(querystring: string): string {
  const params = [...new URLSearchParams(querystring)].filter(([name]) => !IDENTITY_PARAMS.has(name));
  params.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/** How a role's rules depend on who calls and when. */
interface RuleDependence {
  user: boolean;
  now: boolean;
}

const dependenceOf = new WeakMap<PermissionSet, RuleDependence>();

function ruleDependence(permissions: PermissionSet): RuleDependence {
  const known = dependenceOf.get(permissions);
  if (known) return known;
  const text = JSON.stringify([...permissions.values()].map((permission) => [permission.permissions, permission.fields === '*' ? '*' : [...permission.fields]]));
  const found = { user: text.includes('$CURRENT_USER'), now: text.includes('$NOW') };
  dependenceOf.set(permissions, found);
  return found;
}

/**
 * The part of the key that stands for the caller: what decides which rows and fields it may read. Callers
 * with the same role and flags share entries unless a rule (or the query) reads `$CURRENT_USER`, which adds
 * the user; `$NOW` in either makes the read uncacheable (null), as its answer changes by itself. Public
 * callers share one identity. Share sessions are never cached (their reach is per share).
 */
export function permissionIdentity(accountability: Accountability, permissions: PermissionSet | null, query: string): string | null {
  if (accountability.share) return null;
  if (query.includes('%24NOW') || query.includes('$NOW')) return null;
  const flags = `${accountability.role ?? 'public'}|${accountability.admin ? 'admin' : ''}|${accountability.app ? 'app' : ''}`;
  const dependence = permissions ? ruleDependence(permissions) : { user: false, now: false };
  if (dependence.now) return null;
  const byUser = dependence.user || query.includes('%24CURRENT_USER') || query.includes('$CURRENT_USER');
  return byUser ? `${flags}|${accountability.user ?? ''}` : flags;
}

/** The entry key of one read: method, path, normalised query and the caller's identity. */
export function cacheKey(method: string, path: string, query: string, identity: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${query}\n${identity}`).digest('base64url');
}
