import type { VerifiedToken } from './access-token.ts';

/**
 * Remembers access tokens whose signature has been checked, until they expire. Verifying an HS256 JWT
 * costs ~0.2 ms, 10–28 % of a simple request's CPU (docs/performance.md); a lookup costs microseconds.
 * Keys are the whole token, so a changed token is a different key and is verified afresh; expiry is
 * checked on every hit. Bounded: the oldest entries go first.
 */
export class VerifiedTokenCache {
  readonly #entries = new Map<string, VerifiedToken>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** A verified, unexpired token (its claims and times), or null. */
  get(token: string, now = Date.now()): VerifiedToken | null {
    const entry = this.#entries.get(token);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.#entries.delete(token);
      return null;
    }
    return entry;
  }

  /** Stores a token that has just been verified. */
  set(token: string, verified: VerifiedToken): void {
    if (this.#entries.size >= this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, verified);
  }

  get size(): number {
    return this.#entries.size;
  }
}
