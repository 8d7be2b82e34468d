import type { Response } from 'supertest';
import type { TestApp } from '../../helpers/test-app.ts';

/** PUBLIC_URL of the OpenID test apps: they are driven in-process, so the host never resolves. */
export const PUBLIC_URL = 'http://tessera.test';

/** Both redirect URIs (SDK and page flow) of every provider name, for the test provider's client. */
export function redirectUrisFor(names: string[]): string[] {
  return names.flatMap((name) => [`${PUBLIC_URL}/auth/login/${name}/callback`, `${PUBLIC_URL}/auth/callback/${name}`]);
}

/** AUTH_<NAME>_* variables of one provider at `issuer`. */
export function providerEnv(name: string, issuer: string, extra: Record<string, string> = {}): Record<string, string> {
  const prefix = `AUTH_${name.toUpperCase()}_`;
  const env: Record<string, string> = {
    [`${prefix}ISSUER_URL`]: issuer,
    [`${prefix}CLIENT_ID`]: 'tessera-test',
    [`${prefix}CLIENT_SECRET`]: 'tessera-test-secret',
    [`${prefix}SCOPE`]: 'openid email profile',
  };
  for (const [suffix, value] of Object.entries(extra)) env[`${prefix}${suffix}`] = value;
  return env;
}

/** `name=value` pairs of a response's Set-Cookie headers that set (not clear) a cookie. */
export function cookiesOf(response: Response): string[] {
  const headers = (response.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return headers.map((header) => header.split(';')[0]!).filter((pair) => !pair.endsWith('='));
}

/** The Set-Cookie header of cookie `name`, if the response has one. */
export function setCookieHeader(response: Response, name: string): string | undefined {
  return ((response.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((header) => header.startsWith(`${name}=`));
}

/** A started sign-in: the provider's authorization URL and the request cookies Tessera set. */
export interface StartedSignIn {
  authorizationUrl: URL;
  cookies: string[];
}

/** GETs a sign-in start route and checks it redirects away with the request cookies. */
export async function startSignIn(t: TestApp, path: string): Promise<StartedSignIn> {
  const response = await t.request.get(path).expect(302);
  return { authorizationUrl: new URL(response.headers.location!), cookies: cookiesOf(response) };
}

/** Delivers the provider's redirect back to Tessera with `cookies`. */
export function deliverCallback(t: TestApp, callback: URL, cookies: string[]) {
  return t.request.get(callback.pathname + callback.search).set('Cookie', cookies.join('; '));
}
