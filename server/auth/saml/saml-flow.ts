import { randomBytes } from 'node:crypto';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type Koa from 'koa';
import type { AppContext } from '../../app-context.ts';
import type { SamlProviderConfig } from '../../config/load-config.ts';
import { IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS } from '../oidc/provider-client.ts';
import { type CompletedAuthorization, profileIdentifier } from '../oidc/provider-profile.ts';
import { REQUEST_COOKIE_MAX_AGE_SECONDS } from '../oidc/request-cookies.ts';
import { ProviderSignInError } from '../oidc/sign-in-error.ts';
import { deriveKey } from '../secret-keys.ts';
import { TOKEN_CLOCK_TOLERANCE_SECONDS } from '../token-clock-tolerance.ts';
import { parseIdpMetadata, parseSpMetadata } from './saml-metadata.ts';
import { consumeRequestId, isRequestIdUsed } from './used-request-ids.ts';

/** Where the browser goes once signed in, and which of the two flows (pages or SDK) started. */
export interface SamlTargets {
  callbackUrl: string;
  /** True for the sign-in pages: failures go to the error page instead of a JSON answer. */
  page: boolean;
}

/**
 * SP-initiated sign-in: an AuthnRequest with a fresh ID goes to the IdP (HTTP-Redirect binding). Its ID and
 * the targets travel in RelayState, encrypted and bound to the provider: the IdP posts the response back
 * cross-site, where SameSite=Lax cookies do not come along.
 */
export async function beginSamlSignIn(app: AppContext, provider: SamlProviderConfig, targets: SamlTargets): Promise<URL> {
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const relayState = await new EncryptJWT({ requestId, ...targets })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(audience(provider))
    .setIssuedAt()
    .setExpirationTime(`${REQUEST_COOKIE_MAX_AGE_SECONDS}s`)
    .encrypt(relayKey(app));
  try {
    const saml = samlFor(provider, { saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }), getAsync: async () => null, removeAsync: async () => null }, () => requestId);
    return new URL(await saml.getAuthorizeUrlAsync(relayState, undefined, {}));
  } catch (error) {
    throw new ProviderSignInError('OAuthSignin', `Sign-in with "${provider.name}" cannot start: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads RelayState back; null when missing, expired, tampered with or another provider's. */
export async function openRelayState(app: AppContext, provider: SamlProviderConfig, relayState: unknown): Promise<(SamlTargets & { requestId: string }) | null> {
  if (typeof relayState !== 'string' || relayState === '' || relayState.length > 4096) return null;
  try {
    const { payload } = await jwtDecrypt(relayState, relayKey(app), { audience: audience(provider), clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS });
    if (typeof payload.requestId !== 'string' || typeof payload.callbackUrl !== 'string') return null;
    return { requestId: payload.requestId, callbackUrl: payload.callbackUrl, page: payload.page === true };
  } catch {
    return null;
  }
}

/**
 * The ACS: verifies the posted response (signed assertion against the IdP's certificates, issuer, audience
 * = our entityID, time conditions with 10 s of skew, InResponseTo = the ID in RelayState) and uses its
 * request ID up, so a replayed response is refused. Throws ProviderSignInError for every failure.
 */
export async function completeSamlSignIn(ctx: Koa.Context, app: AppContext, provider: SamlProviderConfig, request: SamlTargets & { requestId: string }): Promise<CompletedAuthorization> {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  if (typeof body.SAMLResponse !== 'string' || body.SAMLResponse === '') throw new ProviderSignInError('OAuthCallback', 'The SAML response is missing (SAMLResponse).');
  const db = app.database.kysely();
  if (await isRequestIdUsed(db, request.requestId)) throw new ProviderSignInError('OAuthCallback', 'This SAML response was used already.');
  // node-saml asks its cache whether InResponseTo names a request we sent: only RelayState's ID does.
  const cache: CacheProvider = {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    // node-saml reads the value as the request's creation time; RelayState's own expiry already bounds its age.
    getAsync: async (key) => (key === request.requestId && !(await isRequestIdUsed(db, key)) ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
  let profile: Record<string, unknown> | null;
  try {
    ({ profile } = await samlFor(provider, cache).validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (error) {
    throw new ProviderSignInError('OAuthCallback', `The SAML response was refused: ${(error as Error).message}`, { cause: error });
  }
  if (!(await consumeRequestId(db, request.requestId))) throw new ProviderSignInError('OAuthCallback', 'This SAML response was used already.');
  if (!profile) throw new ProviderSignInError('OAuthCallback', 'The SAML response holds no assertion.');
  const claims = Object.fromEntries(Object.entries(profile).filter(([, value]) => typeof value !== 'function'));
  return { profile: { identifier: profileIdentifier(provider, claims), claims, refreshToken: null }, callbackUrl: request.callbackUrl };
}

/**
 * Single logout, SP-initiated: the IdP's SingleLogoutService URL with a LogoutRequest for the person a
 * sign-in's profile names (nameID, format, session index, kept in auth_data), or null when the IdP's
 * metadata lists no SingleLogoutService (HTTP-Redirect) or the profile lacks a nameID.
 */
export async function samlLogoutUrl(provider: SamlProviderConfig, profile: Record<string, unknown>, relayState: string): Promise<URL | null> {
  let idp: ReturnType<typeof parseIdpMetadata>;
  try {
    idp = parseIdpMetadata(provider.idpMetadata);
  } catch {
    return null;
  }
  if (!idp.sloUrl || typeof profile.nameID !== 'string') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const saml = samlFor(provider, { saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }), getAsync: async () => null, removeAsync: async () => null });
  const person = { issuer: text(profile.issuer) ?? idp.entityId, nameID: profile.nameID, nameIDFormat: text(profile.nameIDFormat) ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', sessionIndex: text(profile.sessionIndex), nameQualifier: text(profile.nameQualifier), spNameQualifier: text(profile.spNameQualifier) };
  return new URL(await saml.getLogoutUrlAsync(person, relayState, {}));
}

/** Tessera's own metadata as configured (SP_METADATA), served for the IdP to read. */
export function serviceProviderMetadata(provider: SamlProviderConfig): string {
  return provider.spMetadata;
}

function samlFor(provider: SamlProviderConfig, cacheProvider: CacheProvider, generateUniqueId?: () => string): SAML {
  const idp = parseIdpMetadata(provider.idpMetadata);
  const sp = parseSpMetadata(provider.spMetadata);
  return new SAML({
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    idpCert: idp.signingCerts.map((cert) => `-----BEGIN CERTIFICATE-----\n${cert.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`),
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS * 1000,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_COOKIE_MAX_AGE_SECONDS * 1000,
    cacheProvider,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(generateUniqueId ? { generateUniqueId } : {}),
    ...(idp.sloUrl ? { logoutUrl: idp.sloUrl } : {}),
  });
}

function audience(provider: SamlProviderConfig): string {
  return `tessera:saml:${provider.name}`;
}

function relayKey(app: AppContext): Uint8Array {
  return deriveKey(app.config.secret, 'saml-relay-state');
}

