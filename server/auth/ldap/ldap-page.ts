import type Koa from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../../app-context.ts';
import type { LdapProviderConfig } from '../../config/load-config.ts';
import { isTesseraError } from '../../errors.ts';
import { validatePayload } from '../../services/validate-payload.ts';
import { credentialString } from '../credential-fields.ts';
import { assertCsrfToken } from '../csrf.ts';
import { ProviderSignInError } from '../oidc/sign-in-error.ts';
import { safeCallbackUrl } from '../pages/callback-url.ts';
import { deliverTokens } from '../sessions-modes.ts';
import { loginWithDirectory } from './ldap-login.ts';

const directoryFormSchema = yup.object({
  identifier: credentialString(254).required(),
  password: credentialString(1024).required(),
  otp: credentialString(16).transform((value: unknown) => value || undefined),
});

/** Codes of failures the error page shows as AccessDenied rather than CredentialsSignin. */
const ACCESS_DENIED_CODES = new Set(['USER_SUSPENDED', 'INVALID_IP', 'FORBIDDEN']);

/**
 * The sign-in page's directory form (`POST /auth/callback/<name>`: csrfToken, identifier, password, otp,
 * callbackUrl): signs in with the session cookie and redirects to callbackUrl; a refusal goes to the
 * error page (CredentialsSignin, AccessDenied, OAuthAccountNotLinked).
 */
export async function handleDirectoryForm(ctx: Koa.Context, app: AppContext, provider: LdapProviderConfig, form: Record<string, unknown>): Promise<void> {
  const publicUrl = app.config.server.publicUrl;
  assertCsrfToken(ctx, form.csrfToken);
  const credentials = validatePayload(directoryFormSchema, form);
  try {
    const tokens = await loginWithDirectory(app, ctx.state.accountability, provider, credentials);
    deliverTokens(ctx, app, tokens, 'session');
  } catch (error) {
    if (!isTesseraError(error) || error.status >= 500) throw error;
    const code = error instanceof ProviderSignInError ? error.reason : ACCESS_DENIED_CODES.has(error.code) ? 'AccessDenied' : 'CredentialsSignin';
    return ctx.redirect(`${publicUrl}/auth/error?error=${encodeURIComponent(code)}`);
  }
  ctx.redirect(safeCallbackUrl(form.callbackUrl, publicUrl));
}
