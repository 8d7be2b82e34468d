import type { AuthProvider } from '@refinedev/core';
import { forgetLatestPage } from '../app/shell/last-page.ts';
import { apiData, apiRequest, type ApiHttpError } from './http-client.ts';

/** The signed-in user as the admin needs it. */
export interface Identity {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string;
  avatar: string | null;
  language: string | null;
  appearance: 'auto' | 'light' | 'dark' | null;
  theme_light_overrides: unknown;
  theme_dark_overrides: unknown;
  last_page: string | null;
  role: { id: string; name: string; admin_access: boolean; app_access: boolean } | null;
}

/** Credentials of the sign-in form; `otp` only when the user has two-factor authentication on. */
export interface LoginParams {
  email: string;
  password: string;
  otp?: string;
}

const IDENTITY_FIELDS = 'id,email,first_name,last_name,avatar,language,appearance,theme_light_overrides,theme_dark_overrides,last_page,role.id,role.name,role.admin_access,role.app_access';

/** Reads `/users/me`; a role that cannot read its own role object still gets an identity. */
export async function fetchIdentity(): Promise<Identity> {
  let user: Record<string, unknown>;
  try {
    user = await apiData<Record<string, unknown>>('/users/me', { query: { fields: IDENTITY_FIELDS } });
  } catch (error) {
    if ((error as ApiHttpError).statusCode !== 403 || !(await isSignedIn())) throw error;
    user = await apiData<Record<string, unknown>>('/users/me', { query: { fields: '*' } });
  }
  const first = (user.first_name as string | null) ?? null;
  const last = (user.last_name as string | null) ?? null;
  const email = (user.email as string | null) ?? null;
  const role = user.role && typeof user.role === 'object' ? (user.role as Identity['role']) : null;
  return {
    id: String(user.id),
    email,
    first_name: first,
    last_name: last,
    name: [first, last].filter(Boolean).join(' ') || email || 'User',
    avatar: (user.avatar as string | null) ?? null,
    language: (user.language as string | null) ?? null,
    appearance: (user.appearance as Identity['appearance']) ?? null,
    theme_light_overrides: user.theme_light_overrides ?? null,
    theme_dark_overrides: user.theme_dark_overrides ?? null,
    last_page: (user.last_page as string | null) ?? null,
    role,
  };
}

/**
 * True when the session cookie signs someone in. `/auth/session` answers `{}` when signed out (no error
 * in the browser's console) and extends a session that is due.
 */
async function isSignedIn(): Promise<boolean> {
  try {
    const session = await apiRequest<{ user?: { id?: string } } | null>('/auth/session');
    return Boolean(session?.user?.id);
  } catch {
    return false;
  }
}

/** Rotates the session cookie (`/auth/refresh` in session mode); false when the session is gone. */
export async function refreshSession(): Promise<boolean> {
  try {
    await apiRequest('/auth/refresh', { method: 'POST', body: { mode: 'session' } });
    return true;
  } catch {
    return false;
  }
}

/** Signs in through `/auth/login` in session mode; answers the failure (code, message, field) or null. */
export async function signIn({ email, password, otp }: LoginParams): Promise<{ message: string; code?: string; field?: string } | null> {
  try {
    await apiRequest('/auth/login', { method: 'POST', body: { email, password, otp: otp || undefined, mode: 'session' } });
    return null;
  } catch (error) {
    const httpError = error as ApiHttpError;
    return { message: httpError.message, code: httpError.code, field: Object.keys(httpError.errors ?? {})[0] };
  }
}

/**
 * Sign-in through `/auth/login` in session mode: the session token lives in an httpOnly cookie that no
 * script can read, and every API call is signed in by it.
 */
export function createAuthProvider(): AuthProvider {
  return {
    async login(params: LoginParams) {
      const failure = await signIn(params);
      if (!failure) return { success: true, redirectTo: '/' };
      return { success: false, error: { name: failure.code ?? 'Error', message: failure.message } };
    },

    async logout() {
      try {
        await apiRequest('/auth/logout', { method: 'POST', body: { mode: 'session' } });
      } catch {
        // Already signed out (expired session): the cookie is gone either way.
      }
      forgetLatestPage();
      return { success: true, redirectTo: '/login' };
    },

    async check() {
      if (await isSignedIn()) return { authenticated: true };
      return { authenticated: false, redirectTo: '/login', logout: true };
    },

    async onError(error: ApiHttpError) {
      if (error?.statusCode === 401) {
        if (await refreshSession()) return {};
        return { logout: true, redirectTo: '/login', error };
      }
      return {};
    },

    async getIdentity() {
      try {
        return await fetchIdentity();
      } catch {
        return null;
      }
    },

    async getPermissions() {
      return apiData('/permissions/me');
    },

    async forgotPassword({ email }: { email: string }) {
      try {
        await apiRequest('/auth/password/request', { method: 'POST', body: { email } });
        return { success: true };
      } catch (error) {
        return { success: false, error: error as Error };
      }
    },

    async updatePassword({ token, password }: { token: string; password: string }) {
      try {
        await apiRequest('/auth/password/reset', { method: 'POST', body: { token, password } });
        return { success: true, redirectTo: '/login' };
      } catch (error) {
        return { success: false, error: error as Error };
      }
    },
  };
}
