import { randomBytes } from 'node:crypto';
import { eventAccountability } from '../events/event-names.ts';
import { InvalidCredentialsError, InvalidOtpError, InvalidTokenError, UserSuspendedError } from '../errors.ts';
import type { ServiceContext } from '../services/service-context.ts';
import { signAccessToken } from './access-token.ts';
import { normalizeEmail } from './email.ts';
import { assertIpAllowed } from './ip-access.ts';
import { processLoginAttempts, recordFailedLogin } from './login-attempts.ts';
import { hashPassword, madeAtOtherCost, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { deriveKey, requireSecret } from './secret-keys.ts';
import { acceptStoredOtp, assertOtpPresent } from './tfa-login.ts';
import { deleteExpiredSessions, hashSessionToken } from './sessions.ts';

/** Tokens handed out by a successful sign-in. */
export interface AuthTokens {
  access_token: string;
  /** Access-token lifetime in milliseconds. */
  expires: number;
  refresh_token: string;
}

export { hashSessionToken } from './sessions.ts';

/** Credential sign-in and session creation. */
export class AuthService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /**
   * Checks e-mail, password, status, the role's ip_access and, when TFA is on, the one-time password;
   * opens a session and returns the tokens. Wrong passwords and OTPs count towards auth_login_attempts.
   */
  async login(credentials: { email: string; password: string; otp?: string | null }): Promise<AuthTokens> {
    const { db, config, accountability } = this.#context;
    const attempts = this.#context.loginAttempts ?? processLoginAttempts();
    const user = await db
      .selectFrom('tessera_users as u')
      .leftJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.id', 'u.password', 'u.status', 'u.role', 'u.tfa_secret', 'r.admin_access', 'r.app_access', 'r.ip_access'])
      .where('u.email', '=', normalizeEmail(credentials.email))
      .executeTakeFirst();

    if (!user || !user.password) {
      await verifyAgainstDummy(credentials.password, config.auth.hash);
      throw new InvalidCredentialsError();
    }
    if (!(await verifyPassword(user.password, credentials.password))) {
      if (user.status === 'active') await recordFailedLogin(db, attempts, user.id, this.#context.accessStamps);
      throw new InvalidCredentialsError();
    }
    // Only after a correct password, so the status of an account never leaks to someone guessing.
    if (user.status !== 'active') throw new UserSuspendedError(`User is ${user.status} and cannot sign in.`);
    assertIpAllowed(user.ip_access, accountability.ip);
    if (user.tfa_secret) {
      assertOtpPresent(credentials.otp);
      if (!(await acceptStoredOtp(db, requireSecret(config), user.id, user.tfa_secret, credentials.otp))) {
        await recordFailedLogin(db, attempts, user.id, this.#context.accessStamps);
        throw new InvalidOtpError();
      }
    }
    await attempts.reset(user.id);

    await db.updateTable('tessera_users').set({ last_access: new Date() }).where('id', '=', user.id).execute();
    // HASH_* changed since this hash was made: hash the password again at today's cost while it is at hand. The
    // same password, so no session ends; a password changed meanwhile is left alone.
    if (await madeAtOtherCost(user.password, config.auth.hash)) {
      const rehashed = await hashPassword(credentials.password, config.auth.hash);
      await db.updateTable('tessera_users').set({ password: rehashed }).where('id', '=', user.id).where('password', '=', user.password).execute();
    }
    const tokens = await this.#openSession({ id: user.id, role: user.role ?? null, admin_access: user.admin_access === true, app_access: user.app_access === true });
    this.#context.events.emit('auth.login', { collection: 'tessera_users', keys: [user.id], payload: { email: normalizeEmail(credentials.email), provider: 'default' }, accountability: { ...eventAccountability(accountability)!, user: user.id, role: user.role ?? null } });
    return tokens;
  }

  /**
   * Opens a session for a user whose identity a sign-in provider has already checked (an LDAP bind):
   * the same status, ip_access and TFA checks as `login`, without the password.
   */
  async loginVerifiedUser(userId: string, provider: string, otp?: string | null): Promise<AuthTokens> {
    const { db, config, accountability } = this.#context;
    const attempts = this.#context.loginAttempts ?? processLoginAttempts();
    const user = await db
      .selectFrom('tessera_users as u')
      .leftJoin('tessera_roles as r', 'r.id', 'u.role')
      .select(['u.id', 'u.email', 'u.status', 'u.role', 'u.tfa_secret', 'r.admin_access', 'r.app_access', 'r.ip_access'])
      .where('u.id', '=', userId)
      .executeTakeFirstOrThrow();
    if (user.status !== 'active') throw new UserSuspendedError(`User is ${user.status} and cannot sign in.`);
    assertIpAllowed(user.ip_access, accountability.ip);
    if (user.tfa_secret) {
      assertOtpPresent(otp);
      if (!(await acceptStoredOtp(db, requireSecret(config), user.id, user.tfa_secret, otp))) {
        await recordFailedLogin(db, attempts, user.id, this.#context.accessStamps);
        throw new InvalidOtpError();
      }
      await attempts.reset(user.id);
    }
    await db.updateTable('tessera_users').set({ last_access: new Date() }).where('id', '=', user.id).execute();
    const tokens = await this.#openSession({ id: user.id, role: user.role ?? null, admin_access: user.admin_access === true, app_access: user.app_access === true });
    this.#context.events.emit('auth.login', { collection: 'tessera_users', keys: [user.id], payload: { email: user.email ?? null, provider }, accountability: { ...eventAccountability(accountability)!, user: user.id, role: user.role ?? null } });
    return tokens;
  }

  /**
   * Exchanges a refresh token for new tokens. The old session row is replaced (rotation), so a refresh
   * token works once; an unknown, expired or inactive-user token is INVALID_TOKEN.
   */
  async refresh(refreshToken: string): Promise<AuthTokens> {
    const { db } = this.#context;
    return db.transaction().execute(async (trx) => {
      const session = await trx
        .deleteFrom('tessera_sessions as s')
        .using('tessera_users as u')
        .whereRef('u.id', '=', 's.user')
        .where('s.token', '=', hashSessionToken(refreshToken))
        .returning(['s.user', 's.expires', 'u.status', 'u.role'])
        .executeTakeFirst();
      if (!session || new Date(session.expires).getTime() <= Date.now()) throw new InvalidTokenError();
      if (session.status !== 'active') throw new UserSuspendedError(`User is ${session.status} and cannot sign in.`);
      const role = session.role ? await trx.selectFrom('tessera_roles').select(['admin_access', 'app_access']).where('id', '=', session.role).executeTakeFirst() : undefined;
      return new AuthService({ ...this.#context, db: trx }).#openSession({ id: session.user, role: session.role ?? null, admin_access: role?.admin_access === true, app_access: role?.app_access === true });
    });
  }

  /** Ends the session of a refresh token (unknown tokens are ignored: logging out twice is fine). */
  async logout(refreshToken: string): Promise<void> {
    await this.#context.db.deleteFrom('tessera_sessions').where('token', '=', hashSessionToken(refreshToken)).execute();
  }

  async #openSession(user: { id: string; role: string | null; admin_access: boolean; app_access: boolean }): Promise<AuthTokens> {
    const { db, config, accountability } = this.#context;
    await deleteExpiredSessions(db);
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
    const accessToken = await signAccessToken({ ...user, session }, deriveKey(requireSecret(config), 'access-token'), config.auth.accessTokenTtlMs);
    return { access_token: accessToken, expires: config.auth.accessTokenTtlMs, refresh_token: refreshToken };
  }
}
