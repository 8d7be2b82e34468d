import { type ErrorCode, TesseraError } from '../../errors.ts';

/**
 * Codes of the sign-in error page (SPEC §8) a provider sign-in can end with; a provider's own error
 * code (`access_denied`, …) is passed on as is.
 */
export type SignInErrorReason = 'OAuthSignin' | 'OAuthCallback' | 'OAuthCreateAccount' | 'OAuthAccountNotLinked' | 'AccessDenied' | (string & {});

/** HTTP code of each reason in JSON answers; passed-on provider errors and failed callbacks are 401. */
const CODE_OF_REASON: Record<string, ErrorCode> = {
  OAuthSignin: 'SERVICE_UNAVAILABLE',
  OAuthCreateAccount: 'SERVICE_UNAVAILABLE',
  AccessDenied: 'FORBIDDEN',
  OAuthAccountNotLinked: 'FORBIDDEN',
};

/**
 * A provider sign-in that failed. `reason` is what the sign-in pages show (`/auth/error?error=<reason>`);
 * the JSON routes answer with the message and `extensions.reason`.
 */
export class ProviderSignInError extends TesseraError {
  readonly code: ErrorCode;
  readonly reason: SignInErrorReason;

  constructor(reason: SignInErrorReason, message: string, options?: ErrorOptions) {
    super(message, { reason }, options);
    this.reason = reason;
    this.code = CODE_OF_REASON[reason] ?? 'INVALID_CREDENTIALS';
  }
}

/** SPEC §8 text of AccessDenied. */
export const ACCESS_DENIED_MESSAGE = 'You do not have permission to sign in.';
/** SPEC §8 text of OAuthAccountNotLinked. */
export const ACCOUNT_NOT_LINKED_MESSAGE = 'To confirm your identity, sign in with the same account you used originally.';
/** SPEC §8 provider-login message for a callback without the state, PKCE and nonce cookies. */
export const MISSING_REQUEST_DETAILS_MESSAGE = 'did not find expected authorization request details in session';
/** SPEC §8 provider-login message for a token response without an ID token. */
export const MISSING_ID_TOKEN_MESSAGE = 'id_token not present in TokenSet';
/** SPEC §8 provider-login message for a token response without an access token (user info needs one). */
export const MISSING_ACCESS_TOKEN_MESSAGE = 'expected access_token to be returned when asking for userinfo in verify callback';
/** SPEC §8 provider-login message for a provider whose discovery document names no issuer. */
export const NO_ISSUER_MESSAGE = 'client must have an issuer with an identifier';
/** SPEC §8 provider-login message for a provider that is an OAuth 2.0 server but no OpenID provider. */
export const NOT_OPENID_CLIENT_MESSAGE = 'client must be an instance of the OpenID client';
/** SPEC §8 provider-login message for a sign-in asked to end without a session (`?mode=json`). */
export const SESSION_SUPPORT_MESSAGE = 'authentication requires session support';
