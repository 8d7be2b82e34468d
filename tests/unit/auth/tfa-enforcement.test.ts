import { describe, expect, it } from 'vitest';
import { isTfaSetupRoute } from '../../../server/auth/tfa-enforcement.ts';

describe('routes open before TFA is set up (role.enforce_tfa)', () => {
  it.each([
    ['POST', '/auth/login'],
    ['POST', '/auth/refresh'],
    ['GET', '/auth/signout'],
    ['GET', '/users/me'],
    ['POST', '/users/me/tfa/generate'],
    ['POST', '/users/me/tfa/enable'],
    ['GET', '/server/ping'],
  ])('%s %s is open', (method, path) => {
    expect(isTfaSetupRoute(method, path)).toBe(true);
  });

  it.each([
    ['PATCH', '/users/me'],
    ['GET', '/users'],
    ['GET', '/users/me/tfa'],
    ['GET', '/items/articles'],
    ['GET', '/authors'],
    ['GET', '/serverless'],
    ['POST', '/collections'],
  ])('%s %s is closed', (method, path) => {
    expect(isTfaSetupRoute(method, path)).toBe(false);
  });
});
