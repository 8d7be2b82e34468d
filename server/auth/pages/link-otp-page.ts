import type { Branding } from '../../mail/branding.ts';
import { hidden, html, renderPage } from './html.ts';

/** What the one-time-password card of an e-mail sign-in link carries over to its form post. */
export interface LinkOtpPageOptions {
  authBase: string;
  csrfToken: string;
  /** The link's token and e-mail: the link is used up only once the code is right. */
  token: string;
  email: string;
  callbackUrl: string;
  /** Message of a refused code. */
  error?: string | null;
}

/**
 * Shown when an e-mail sign-in link is opened by a user with two-factor authentication on: the link alone
 * signs nobody in, the code posted from this card (with the link) does.
 */
export function renderLinkOtpPage(brand: Branding, options: LinkOtpPageOptions): string {
  const error = options.error ? html`<p class="error" role="alert" data-code="INVALID_OTP">${options.error}</p>` : '';
  return renderPage(
    brand,
    'Two-factor authentication',
    html`<h1>Two-factor authentication</h1>${error}
<p>Enter the one-time password from your authenticator app to finish signing in.</p>
<form method="post" action="${options.authBase}/callback/email">
${hidden('csrfToken', options.csrfToken)}${hidden('token', options.token)}${hidden('email', options.email)}${hidden('callbackUrl', options.callbackUrl)}
<label for="otp">One-time password</label>
<input id="otp" type="text" name="otp" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">Sign in</button>
</form>`,
  );
}
