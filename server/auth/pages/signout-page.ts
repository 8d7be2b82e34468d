import type { Branding } from '../../mail/branding.ts';
import { hidden, html, renderPage } from './html.ts';

/** `GET /auth/signout`: asks first; the button posts the CSRF token to `POST /auth/signout`. */
export function renderSignOutPage(brand: Branding, options: { authBase: string; csrfToken: string; callbackUrl: string }): string {
  return renderPage(
    brand,
    'Sign out',
    html`<h1>Sign out</h1>
<p>Are you sure you want to sign out?</p>
<form method="post" action="${options.authBase}/signout">
${hidden('csrfToken', options.csrfToken)}${hidden('callbackUrl', options.callbackUrl)}<button type="submit">Sign out</button>
</form>`,
  );
}
