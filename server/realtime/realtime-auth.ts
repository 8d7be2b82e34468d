import type { AppContext } from '../app-context.ts';
import { verifyAccessTokenWithExpiry } from '../auth/access-token.ts';
import type { Accountability } from '../auth/accountability.ts';
import { AuthService } from '../auth/auth-service.ts';
import { deriveKey } from '../auth/secret-keys.ts';
import { staticTokenCaller } from '../auth/static-token.ts';
import { InvalidPayloadError } from '../errors.ts';

/** Who a socket speaks for, and until when (null: a static token, which does not expire). */
export interface SocketCaller {
  accountability: Accountability;
  expiresAt: number | null;
  refreshToken?: string;
}

type Origin = Pick<Accountability, 'ip' | 'userAgent' | 'origin'>;

/** Resolves an `auth` message (`access_token`, or `email` + `password`) into a caller, as REST would. */
export async function authenticateMessage(app: AppContext, message: Record<string, unknown>, origin: Origin): Promise<SocketCaller> {
  if (typeof message.access_token === 'string' && message.access_token) return callerFromToken(app, message.access_token, origin);
  if (typeof message.email === 'string' && typeof message.password === 'string') {
    const anonymous: Accountability = { user: null, role: null, admin: false, app: false, session: null, share: null, ...origin };
    const tokens = await new AuthService(app.servicesContext(anonymous)).login({ email: message.email, password: message.password, otp: typeof message.otp === 'string' ? message.otp : null });
    return { ...(await callerFromToken(app, tokens.access_token, origin)), refreshToken: tokens.refresh_token };
  }
  throw new InvalidPayloadError('"access_token" or "email" and "password" are required.');
}

export async function callerFromToken(app: AppContext, token: string, origin: Origin): Promise<SocketCaller> {
  const anonymous: Accountability = { user: null, role: null, admin: false, app: false, session: null, share: null, ...origin };
  const staticCaller = await staticTokenCaller(app.database.kysely(), token, anonymous);
  if (staticCaller) return { accountability: staticCaller, expiresAt: null };
  const { claims, expiresAt } = await verifyAccessTokenWithExpiry(token, deriveKey(app.config.secret, 'access-token'));
  return {
    accountability: { ...origin, user: claims.id, role: claims.role, admin: claims.admin_access, app: claims.app_access, session: claims.session, share: claims.share ?? null },
    expiresAt,
  };
}
