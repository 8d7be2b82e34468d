import { REQUEST_COOKIE_MAX_AGE_SECONDS } from '../oidc/request-cookies.ts';

/** How long a used AuthnRequest ID is remembered: as long as its RelayState can be opened, plus skew. */
const REMEMBER_MS = (REQUEST_COOKIE_MAX_AGE_SECONDS + 60) * 1000;
/** Bound on remembered IDs, so a flood of sign-ins cannot grow memory without limit. */
const MAX_REMEMBERED = 100_000;

const used = new Map<string, number>();

/** True when a response to this request was accepted already (a replay). */
export function isRequestIdUsed(id: string): boolean {
  const until = used.get(id);
  return until !== undefined && until > Date.now();
}

/** Marks the request as answered; false when it already was (two posts of one response racing). */
export function consumeRequestId(id: string): boolean {
  forgetExpired();
  if (isRequestIdUsed(id)) return false;
  if (used.size >= MAX_REMEMBERED) used.delete(used.keys().next().value!);
  used.set(id, Date.now() + REMEMBER_MS);
  return true;
}

function forgetExpired(): void {
  const now = Date.now();
  for (const [id, until] of used) {
    if (until > now) break;
    used.delete(id);
  }
}
