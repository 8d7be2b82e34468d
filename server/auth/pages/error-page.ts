import type { Branding } from '../../mail/branding.ts';
import type { SignInErrorPage } from './error-catalogue.ts';
import { html, renderPage } from './html.ts';

/** `GET /auth/error?error=Code`: the catalogue's texts, with a way back to the sign-in page. */
export function renderErrorPage(brand: Branding, page: SignInErrorPage, authBase: string): string {
  return renderPage(
    brand,
    page.heading,
    html`<h1>${page.heading}</h1>
${page.messages.map((message) => html`<p>${message}</p>`)}
<a class="button" href="${authBase}/signin">Sign in</a>`,
  );
}
