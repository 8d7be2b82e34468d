import type { AccessTokenClaims } from './access-token.ts';

/**
 * Remembers access tokens whose signature has been checked, until they expire. Verifying an HS256 JWT
 * costs ~0.2 ms, 10–28 % of a simple request's CPU (docs/performance.md); a lookup costs microseconds.
 * Keys are the whole token, so a changed token is a different key and is verified afresh; expiry is
 * checked on every hit. Bounded: the oldest entries go first.
 */
export class VerifiedTokenCache {
  readonly #entries = new Map<string, { claims: AccessTokenClaims; expiresAt: number }>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** The claims of a verified, unexpired token, or null. */
  get(token: string, now = Date.now()): AccessTokenClaims | null {
    const entry = this.#entries.get(token);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.#entries.delete(token);
      return null;
    }
    return entry.claims;
  }

  /** Stores a token that has just been verified, with its expiry in epoch milliseconds. */
  set(token: string, claims: AccessTokenClaims, expiresAt: number): void {
    if (this.#entries.size >= this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, { claims, expiresAt });
  }

  get size(): number {
    return this.#entries.size;
  }
}
