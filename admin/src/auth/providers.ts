import { apiRequest } from '../providers/http-client.ts';

/** A sign-in method the server offers (`GET /auth/providers`). */
export interface SignInProvider {
  id: string;
  name: string;
  type: string;
}

/** The server's sign-in methods: `credentials`, `email` when a mailer is configured, and OpenID providers. */
export async function fetchProviders(): Promise<SignInProvider[]> {
  try {
    const providers = await apiRequest<Record<string, SignInProvider>>('/auth/providers');
    return Object.values(providers ?? {});
  } catch {
    return [];
  }
}

/** Where an OpenID button sends the browser: the server redirects back to the admin once signed in. */
export function providerLoginUrl(provider: string): string {
  const back = `${window.location.origin}/admin/`;
  return `/auth/login/${encodeURIComponent(provider)}?redirect=${encodeURIComponent(back)}`;
}

/**
 * Mails a sign-in link through the server's sign-in pages (`POST /auth/signin/email`, CSRF double
 * submit). True when the server went on to its "check your email" page.
 */
export async function requestEmailLink(email: string): Promise<boolean> {
  const { csrfToken } = await apiRequest<{ csrfToken: string }>('/auth/csrf');
  const body = new URLSearchParams({ csrfToken, email, callbackUrl: `${window.location.origin}/admin/` });
  const response = await fetch('/auth/signin/email', { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'text/html' } });
  return response.ok && new URL(response.url).pathname.endsWith('/verify-request');
}
