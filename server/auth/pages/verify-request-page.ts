import type { Branding } from '../../mail/branding.ts';
import { html, renderPage } from './html.ts';

/** `GET /auth/verify-request`: shown after an e-mail sign-in link was requested. */
export function renderVerifyRequestPage(brand: Branding, publicUrl: string): string {
  return renderPage(
    brand,
    'Check your email',
    html`<h1>Check your email</h1>
<p>A sign in link has been sent to your email address.</p>
<p><a href="${publicUrl}">${new URL(publicUrl).host}</a></p>`,
  );
}
