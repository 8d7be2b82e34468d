import { apiRequest } from '../providers/http-client.ts';

/** A sign-in method the server offers (`GET /auth/providers`, with driver and icon from `GET /auth`). */
export interface SignInProvider {
  id: string;
  name: string;
  type: string;
  /** `openid`, `oauth2`, `ldap` or `saml` for configured providers; undefined for credentials and email. */
  driver?: string;
  icon?: string | null;
}

/** A configured provider as `GET /auth` lists it (Directus's shape). */
export interface ConfiguredProvider {
  name: string;
  driver: string;
  label: string;
  icon: string | null;
}

/** The configured sign-in providers (`GET /auth`), in AUTH_PROVIDERS order; empty when they cannot be read. */
export async function fetchConfiguredProviders(): Promise<ConfiguredProvider[]> {
  try {
    return (await apiRequest<{ data: ConfiguredProvider[] }>('/auth'))?.data ?? [];
  } catch {
    return [];
  }
}

/** The server's sign-in methods: `credentials`, `email` when a mailer is configured, and the configured providers. */
export async function fetchProviders(): Promise<SignInProvider[]> {
  try {
    const [providers, configured] = await Promise.all([apiRequest<Record<string, SignInProvider>>('/auth/providers'), fetchConfiguredProviders()]);
    return Object.values(providers ?? {}).map((provider) => {
      const match = configured.find((entry) => entry.name === provider.id);
      return match ? { ...provider, driver: match.driver, icon: match.icon } : provider;
    });
  } catch {
    return [];
  }
}

/** Signs in with a directory (LDAP) identifier and password in session mode; null on success, else the error. */
export async function signInWithDirectory(provider: string, values: { identifier: string; password: string; otp?: string }): Promise<{ message: string; code?: string } | null> {
  try {
    await apiRequest(`/auth/login/${encodeURIComponent(provider)}`, { method: 'POST', body: { ...values, otp: values.otp || undefined, mode: 'session' } });
    return null;
  } catch (error) {
    const failure = error as { message: string; code?: string };
    return { message: failure.message, code: failure.code };
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
