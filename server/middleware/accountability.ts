import type { Middleware } from 'koa';
import type { AppContext } from '../app-context.ts';
import { readCookieSession } from '../auth/session-cookie.ts';
import { verifyAccessTokenWithExpiry } from '../auth/access-token.ts';
import { VerifiedTokenCache } from '../auth/verified-token-cache.ts';
import { publicAccountability, type Accountability } from '../auth/accountability.ts';
import { deriveKey } from '../auth/secret-keys.ts';
import { roleAccessGuard } from '../auth/ip-access.ts';
import { staticTokenCaller } from '../auth/static-token.ts';
import { assertIssuedAfterStamp } from '../auth/access-stamp-check.ts';
import { InvalidTokenError } from '../errors.ts';

/** The bearer token from `Authorization: Bearer …` or `?access_token=`, if any (else the session cookie is tried). */
function readToken(header: string, query: unknown): string | null {
  if (header) {
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw new InvalidTokenError('Authorization header must be "Bearer <token>".');
    return token;
  }
  return typeof query === 'string' && query ? query : null;
}

/** Resolves who is calling into `ctx.state.accountability`; anonymous callers get the public role. */
export function accountability(secret: string, app: AppContext): Middleware {
  const key = deriveKey(secret, 'access-token');
  const tokens = new VerifiedTokenCache();
  const guardRole = roleAccessGuard(() => app.database.kysely());
  return async (ctx, next) => {
    const request = { ip: ctx.ip || null, userAgent: ctx.get('User-Agent') || null, origin: ctx.get('Origin') || null };
    let caller: Accountability = publicAccountability(request);
    const token = readToken(ctx.get('Authorization'), ctx.query.access_token);
    // A static token (users.token) is anything that is not shaped like a JWT; see docs/auth.md.
    const staticCaller = token ? await staticTokenCaller(app.database.kysely(), token, caller) : null;
    if (staticCaller) caller = staticCaller;
    else if (token) {
      let verified = tokens.get(token);
      if (!verified) {
        verified = await verifyAccessTokenWithExpiry(token, key);
        tokens.set(token, verified);
      }
      const { claims } = verified;
      if (claims.id) await assertIssuedAfterStamp(app, claims.id, verified.issuedAt);
      caller = { ...request, user: claims.id, role: claims.role, admin: claims.admin_access, app: claims.app_access, session: claims.session, share: claims.share ?? null };
    } else {
      const session = await readCookieSession(ctx, app);
      if (session) caller = { ...request, user: session.user, role: session.role, admin: session.admin_access, app: session.app_access, session: session.hash, share: session.share };
    }
    await guardRole(caller, ctx.method, ctx.path);
    ctx.state.accountability = caller;
    await next();
  };
}
