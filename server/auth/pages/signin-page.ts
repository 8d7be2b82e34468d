import type { Branding } from '../../mail/branding.ts';
import type { ProviderSummary } from '../oidc/providers.ts';
import { hidden, html, renderPage, type SafeHtml } from './html.ts';
import { providerIcon } from './provider-icon.ts';

/** What the sign-in page offers. */
export interface SignInPageOptions {
  /** Path of the auth routes as the browser sees them (`/auth`, or under PUBLIC_URL's path). */
  authBase: string;
  csrfToken: string;
  callbackUrl: string;
  /** Show the e-mail link form (a mail transport is configured). */
  email: boolean;
  providers: ProviderSummary[];
  /** Message of a failed attempt to show above the forms. */
  error?: string | null;
}

/** `GET /auth/signin`: one form per enabled method; every form posts, so no JavaScript is needed. */
export function renderSignInPage(brand: Branding, options: SignInPageOptions): string {
  const common = [hidden('csrfToken', options.csrfToken), hidden('callbackUrl', options.callbackUrl)];
  const sections: SafeHtml[] = [];
  sections.push(
    ...options.providers.map((provider) => {
      const id = encodeURIComponent(provider.name);
      const icon = provider.icon ? html` data-icon="${provider.icon}"` : '';
      const glyph = providerIcon(provider.icon);
      if (provider.driver === 'ldap') {
        // A directory checks an identifier and password; the form posts straight to the callback.
        return html`<form method="post" action="${options.authBase}/callback/${id}">
${common}<label for="${id}-identifier">${provider.label}: identifier</label>
<input id="${id}-identifier" type="text" name="identifier" autocomplete="username" required>
<label for="${id}-password">Password</label>
<input id="${id}-password" type="password" name="password" autocomplete="current-password" required>
<label for="${id}-otp">One-time password (if enabled)</label>
<input id="${id}-otp" type="text" name="otp" inputmode="numeric" autocomplete="one-time-code">
<button type="submit"${icon}>${glyph} Sign in with ${provider.label}</button>
</form>`;
      }
      return html`<form method="post" action="${options.authBase}/signin/${id}">
${common}<button type="submit"${icon}>${glyph} Sign in with ${provider.label}</button>
</form>`;
    }),
  );
  if (options.email) {
    sections.push(html`<form method="post" action="${options.authBase}/signin/email">
${common}<label for="email-link">Email</label>
<input id="email-link" type="email" name="email" autocomplete="email" required>
<button type="submit">Sign in with Email</button>
</form>`);
  }
  sections.push(html`<form method="post" action="${options.authBase}/callback/credentials">
${common}<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required>
<label for="otp">One-time password (if enabled)</label>
<input id="otp" type="text" name="otp" inputmode="numeric" autocomplete="one-time-code">
<button type="submit">Sign in</button>
</form>`);
  const separator = html`<div class="separator">or</div>`;
  const body = sections.flatMap((section, index) => (index === 0 ? [section] : [separator, section]));
  const error = options.error ? html`<p class="error" role="alert">${options.error}</p>` : '';
  return renderPage(brand, 'Sign in', html`<h1>Sign in to ${brand.name}</h1>${error}${body}`);
}
