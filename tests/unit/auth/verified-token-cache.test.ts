import { describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from '../../../server/auth/access-token.ts';
import { VerifiedTokenCache } from '../../../server/auth/verified-token-cache.ts';

const claims = (id: string): AccessTokenClaims => ({ id, role: null, app_access: false, admin_access: false, session: 's' });
const verified = (id: string, expiresAt: number) => ({ claims: claims(id), expiresAt, issuedAt: 1_000 });

describe('VerifiedTokenCache', () => {
  it('returns the claims of a stored token until it expires, then forgets it', () => {
    const cache = new VerifiedTokenCache();
    cache.set('token-a', verified('a', 2_000));
    expect(cache.get('token-a', 1_999)?.claims).toEqual(claims('a'));
    expect(cache.get('token-a', 2_000)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('knows nothing of tokens it was not given, even ones differing by a character', () => {
    const cache = new VerifiedTokenCache();
    cache.set('token-a', verified('a', Date.now() + 60_000));
    expect(cache.get('token-b')).toBeNull();
    expect(cache.get('token-a ')).toBeNull();
  });

  it('drops the oldest entries past its capacity', () => {
    const cache = new VerifiedTokenCache(2);
    const later = Date.now() + 60_000;
    cache.set('one', verified('1', later));
    cache.set('two', verified('2', later));
    cache.set('three', verified('3', later));
    expect(cache.size).toBe(2);
    expect(cache.get('one')).toBeNull();
    expect(cache.get('three')?.claims).toEqual(claims('3'));
  });
});
