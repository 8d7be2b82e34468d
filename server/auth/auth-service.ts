import { createHash, randomBytes } from 'node:crypto';
import { InvalidCredentialsError, UserSuspendedError } from '../errors.ts';
import type { ServiceContext } from '../services/service-context.ts';
import { signAccessToken } from './access-token.ts';
import { normalizeEmail } from './email.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { deriveKey, requireSecret } from './secret-keys.ts';

/** Tokens handed out by a successful sign-in. */
export interface AuthTokens {
  access_token: string;
  /** Access-token lifetime in milliseconds. */
  expires: number;
  refresh_token: string;
}

/** The stored form of a refresh token: its SHA-256, so a database leak yields no usable tokens. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Credential sign-in and session creation. */
export class AuthService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /** Checks e-mail and password, opens a session and returns the tokens. */
  async login(credentials: { email: string; password: string }): Promise<AuthTokens> {
    const { db, config, accountability } = this.#context;
    const user = await db
      .selectFrom('tessera_users as u')
      .leftJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.id', 'u.password', 'u.status', 'u.role', 'r.admin_access', 'r.app_access'])
      .where('u.email', '=', normalizeEmail(credentials.email))
      .executeTakeFirst();

    if (!user || !user.password) {
      await verifyAgainstDummy(credentials.password);
      throw new InvalidCredentialsError();
    }
    if (!(await verifyPassword(user.password, credentials.password))) throw new InvalidCredentialsError();
    if (user.status !== 'active') throw new UserSuspendedError(`User is ${user.status} and cannot sign in.`);

    const refreshToken = randomBytes(32).toString('base64url');
    const session = hashSessionToken(refreshToken);
    await db
      .insertInto('tessera_sessions')
      .values({
        token: session,
        user: user.id,
        expires: new Date(Date.now() + config.auth.refreshTokenTtlMs),
        ip: accountability.ip,
        user_agent: accountability.userAgent,
        origin: accountability.origin,
      })
      .execute();
    await db.updateTable('tessera_users').set({ last_access: new Date() }).where('id', '=', user.id).execute();

    const accessToken = await signAccessToken(
      { id: user.id, role: user.role ?? null, admin_access: user.admin_access === true, app_access: user.app_access === true, session },
      deriveKey(requireSecret(config), 'access-token'),
      config.auth.accessTokenTtlMs,
    );
    return { access_token: accessToken, expires: config.auth.accessTokenTtlMs, refresh_token: refreshToken };
  }
}
