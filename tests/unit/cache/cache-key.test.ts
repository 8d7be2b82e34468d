import { describe, expect, it } from 'vitest';
import { systemAccountability, publicAccountability, type Accountability } from '../../../server/auth/accountability.ts';
import { cacheKey, normalisedQuery, permissionIdentity, queryDependence } from '../../../server/cache/cache-key.ts';
import type { Permission, PermissionSet } from '../../../server/permissions/types.ts';

const caller = (user: string, role: string): Accountability => ({ ...publicAccountability({ ip: null, userAgent: null, origin: null }), user, role });
const rules = (filter: Permission['permissions']): PermissionSet =>
  new Map([['notes:read', { collection: 'notes', action: 'read', fields: '*', permissions: filter, validation: null, presets: null }]]);

describe('normalisedQuery', () => {
  it('sorts parameters by name then value and drops access_token', () => {
    expect(normalisedQuery('sort=-id&fields=id&access_token=abc&filter[a]=2&filter[a]=1')).toBe(normalisedQuery('filter[a]=1&fields=id&filter[a]=2&sort=-id'));
    expect(normalisedQuery('b=1&a=2')).toBe('a=2&b=1');
    expect(normalisedQuery('access_token=x')).toBe('');
  });
});

describe('permissionIdentity', () => {
  const plain = rules({ status: { _eq: 'published' } });
  const own = rules({ owner: { _eq: '$CURRENT_USER' } });
  it('shares one identity between users of a role whose rules do not name the user', () => {
    expect(permissionIdentity(caller('u1', 'r'), plain, '')).toBe(permissionIdentity(caller('u2', 'r'), plain, ''));
  });
  it('separates users when a rule or the query reads $CURRENT_USER', () => {
    expect(permissionIdentity(caller('u1', 'r'), own, '')).not.toBe(permissionIdentity(caller('u2', 'r'), own, ''));
    const query = normalisedQuery('filter[owner][_eq]=$CURRENT_USER');
    expect(permissionIdentity(caller('u1', 'r'), plain, query)).not.toBe(permissionIdentity(caller('u2', 'r'), plain, query));
  });
  it('separates roles, admins and the public', () => {
    const identities = new Set([
      permissionIdentity(caller('u1', 'r'), plain, ''),
      permissionIdentity(caller('u1', 'other'), plain, ''),
      permissionIdentity(systemAccountability(), null, ''),
      permissionIdentity(publicAccountability({ ip: '1.2.3.4', userAgent: 'a', origin: null }), plain, ''),
    ]);
    expect(identities.size).toBe(4);
    expect(permissionIdentity(publicAccountability({ ip: '1.2.3.4', userAgent: 'a', origin: null }), plain, '')).toBe(permissionIdentity(publicAccountability({ ip: '5.6.7.8', userAgent: 'b', origin: null }), plain, ''));
  });
  it('refuses $NOW rules, $NOW queries and share sessions', () => {
    expect(permissionIdentity(caller('u1', 'r'), rules({ starts: { _lte: '$NOW' } }), '')).toBeNull();
    expect(permissionIdentity(caller('u1', 'r'), plain, normalisedQuery('filter[date][_lte]=$NOW'))).toBeNull();
    expect(permissionIdentity({ ...caller('u1', 'r'), share: 's1' }, plain, '')).toBeNull();
  });
  it('keys differ by path, query and identity', () => {
    const keys = new Set([cacheKey('GET', '/items/a', '', 'x'), cacheKey('GET', '/items/b', '', 'x'), cacheKey('GET', '/items/a', 'limit=1', 'x'), cacheKey('GET', '/items/a', '', 'y')]);
    expect(keys.size).toBe(4);
  });
});

describe('queryDependence: variables read from the query as the read parses it', () => {
  const q = (text: string) => queryDependence(normalisedQuery(text));
  it('finds $CURRENT_USER however it is written', () => {
    for (const text of [
      'filter[owner][_eq]=$CURRENT_USER',
      'filter[owner][_eq]=%24CURRENT_USER',
      'filter%5Bowner%5D%5B_eq%5D=%24%43URRENT_USER',
      `filter=${encodeURIComponent('{"owner":{"_eq":"\\u0024CURRENT_USER"}}')}`,
      `filter=${encodeURIComponent('{"owner":{"_in":["\\u0024CURRENT_USER.id"]}}')}`,
      `deep=${encodeURIComponent('{"users":{"_filter":{"id":{"_eq":"\\u0024CURRENT_USER"}}}}')}`,
      `filter=${encodeURIComponent('{"_and":[{"owner":{"_eq":"\\u0024CURRENT_USER"}}]}')}`,
    ]) {
      expect(q(text), text).toEqual({ user: true, now: false });
    }
  });
  it('finds $NOW escaped, and nothing where there is nothing', () => {
    expect(q(`filter=${encodeURIComponent('{"at":{"_lte":"\\u0024NOW(-1 day)"}}')}`)).toEqual({ user: false, now: true });
    expect(q('filter[title][_eq]=CURRENT_USER&sort=-id')).toEqual({ user: false, now: false });
    expect(q('fields=id&limit=10')).toEqual({ user: false, now: false });
  });
  it('gives the same answer the second time (memoised) and none for a query that does not parse', () => {
    const text = `filter=${encodeURIComponent('{"owner":{"_eq":"\\u0024CURRENT_USER"}}')}`;
    expect(q(text)).toEqual(q(text));
    expect(q('filter={"owner":$')).toBeNull();
  });
});
