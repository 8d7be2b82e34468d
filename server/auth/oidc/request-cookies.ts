import { EncryptJWT, jwtDecrypt } from 'jose';
import type Koa from 'koa';
import type { AppContext } from '../../app-context.ts';
import { deriveKey } from '../secret-keys.ts';
import { TOKEN_CLOCK_TOLERANCE_SECONDS } from '../token-clock-tolerance.ts';

/** Lifetime of the state, PKCE and nonce cookies (SPEC §9). */
export const REQUEST_COOKIE_MAX_AGE_SECONDS = 900;

/** What a sign-in started and its callback must see again. */
export interface AuthorizationRequest {
  state: string;
  codeVerifier: string;
  nonce: string;
  /** The redirect_uri sent to the provider (the token exchange must repeat it). */
  redirectUri: string;
  /** Where the browser goes once signed in. */
  callbackUrl: string;
}

/** Cookie names, one per value (as SPEC §9 counts them). */
export const REQUEST_COOKIES = {
  state: 'tessera_oidc_state',
  pkce: 'tessera_oidc_pkce',
  nonce: 'tessera_oidc_nonce',
} as const;
type CookieKind = keyof typeof REQUEST_COOKIES;

/**
 * Stores the request in three httpOnly cookies, each an encrypted JWT (jose, A256GCM with a key derived
 * from SECRET) bound to its provider and kind, so they can be neither read nor altered nor swapped. The
 * encryption protects them, so Koa's cookie signing is not used on top.
 */
export async function saveAuthorizationRequest(ctx: Koa.Context, app: AppContext, provider: string, request: AuthorizationRequest): Promise<void> {
  const values: Record<CookieKind, Record<string, string>> = {
    state: { state: request.state, redirectUri: request.redirectUri, callbackUrl: request.callbackUrl },
    pkce: { codeVerifier: request.codeVerifier },
    nonce: { nonce: request.nonce },
  };
  for (const kind of Object.keys(REQUEST_COOKIES) as CookieKind[]) {
    const sealed = await new EncryptJWT(values[kind])
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setAudience(audience(provider, kind))
      .setIssuedAt()
      .setExpirationTime(`${REQUEST_COOKIE_MAX_AGE_SECONDS}s`)
      .encrypt(cookieKey(app));
    setCookie(ctx, app, REQUEST_COOKIES[kind], sealed, REQUEST_COOKIE_MAX_AGE_SECONDS * 1000);
  }
}

/**
 * Reads the request back and clears its cookies whatever they hold (SPEC §4: read back, cleared from the
 * session). Null when any cookie is missing, expired, tampered with or belongs to another provider.
 */
export async function takeAuthorizationRequest(ctx: Koa.Context, app: AppContext, provider: string): Promise<AuthorizationRequest | null> {
  const opened: Partial<Record<CookieKind, Record<string, unknown>>> = {};
  for (const kind of Object.keys(REQUEST_COOKIES) as CookieKind[]) {
    const sealed = ctx.cookies.get(REQUEST_COOKIES[kind], { signed: false });
    setCookie(ctx, app, REQUEST_COOKIES[kind], '', 0);
    if (!sealed) continue;
    try {
      opened[kind] = (await jwtDecrypt(sealed, cookieKey(app), { audience: audience(provider, kind), clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS })).payload;
    } catch {
      // A cookie that does not open is treated as missing.
    }
  }
  const { state, pkce, nonce } = opened;
  const request = { state: state?.state, redirectUri: state?.redirectUri, callbackUrl: state?.callbackUrl, codeVerifier: pkce?.codeVerifier, nonce: nonce?.nonce };
  return Object.values(request).every((value) => typeof value === 'string' && value !== '') ? (request as AuthorizationRequest) : null;
}

function audience(provider: string, kind: CookieKind): string {
  return `tessera:oidc:${provider}:${kind}`;
}

function cookieKey(app: AppContext): Uint8Array {
  return deriveKey(app.config.secret, 'oidc-request');
}

function setCookie(ctx: Koa.Context, app: AppContext, name: string, value: string, maxAgeMs: number): void {
  const secure = app.config.server.publicUrl.startsWith('https:');
  // TLS may end at a proxy in front of us; PUBLIC_URL says what the browser sees.
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, value || null, { httpOnly: true, sameSite: 'lax', secure, path: '/', overwrite: true, signed: false, ...(value ? { maxAge: maxAgeMs } : {}) });
}
