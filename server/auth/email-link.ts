import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { VERIFICATION_TOKENS_TABLE } from '../../migrations/20261121000002-auth-verification-tokens.ts';
import type { AppContext } from '../app-context.ts';
import { InvalidOtpError, VerificationError } from '../errors.ts';
import { readBranding } from '../mail/branding.ts';
import { signInLinkMail } from '../mail/templates/sign-in-link.ts';
import { normalizeEmail } from './email.ts';
import { processLoginAttempts, recordFailedLogin, type LoginAttempts } from './login-attempts.ts';
import { requireSecret } from './secret-keys.ts';
import { acceptStoredOtp, assertOtpPresent } from './tfa-login.ts';

/** How long an e-mailed sign-in link works (SPEC §9: 24 h). */
export const SIGN_IN_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Path of the callback a sign-in link opens (the e-mail provider's callback, SPEC §2). */
export const EMAIL_CALLBACK_PATH = '/auth/callback/email';

/** The stored form of a link token: its SHA-256, so the table alone cannot sign anyone in. */
function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Removes links past their expiry; runs whenever links are issued or used, so the table stays small. */
export async function deleteExpiredSignInLinks(db: Kysely<any>): Promise<void> {
  await db.deleteFrom(VERIFICATION_TOKENS_TABLE).where('expires', '<=', new Date()).execute();
}

/**
 * Mails a single-use sign-in link, valid 24 hours, to an active user with this e-mail:
 * `<PUBLIC_URL>/auth/callback/email?token=…&email=…&callbackUrl=…`. Unknown or inactive addresses get
 * nothing, without an error. A failing transport rejects (the pages show EmailSignin).
 */
export async function sendSignInLink(app: AppContext, email: string, callbackUrl: string): Promise<void> {
  const identifier = normalizeEmail(email);
  const db = app.database.kysely();
  await deleteExpiredSignInLinks(db);
  const user = await db.selectFrom('tessera_users').select(['id', 'status']).where('email', '=', identifier).executeTakeFirst();
  if (!user || user.status !== 'active') return;

  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto(VERIFICATION_TOKENS_TABLE)
    .values({ token: hashLinkToken(token), identifier, expires: new Date(Date.now() + SIGN_IN_LINK_TTL_MS) })
    .execute();
  const publicUrl = app.config.server.publicUrl;
  const url = new URL(`${publicUrl}${EMAIL_CALLBACK_PATH}`);
  url.searchParams.set('token', token);
  url.searchParams.set('email', identifier);
  url.searchParams.set('callbackUrl', callbackUrl);
  const brand = await readBranding(db, publicUrl);
  await app.mailer.send(signInLinkMail(brand, { to: identifier, url: url.toString(), host: new URL(publicUrl).host }));
}

/** What using a sign-in link needs besides the link: the second factor of a user with TFA on. */
export interface SecondFactor {
  /** The one-time password the sign-in card asked for; absent on the link's first opening. */
  otp?: string | null;
  /** Failed sign-ins count towards settings.auth_login_attempts (the app's store). */
  attempts: LoginAttempts;
}

/**
 * Uses up a sign-in link and returns the user id. A missing, used or expired link, or a user who is no
 * longer active, is a VerificationError (403). A user with two-factor authentication on must also give a
 * current, unused one-time password: without one the answer is INVALID_OTP with `field: "otp"` (the card
 * then asks for it) and the link stays valid; a wrong code is INVALID_OTP too and counts as a failed
 * sign-in. The row is deleted only once every check has passed, in the statement that finds it, so a
 * link works once even when opened twice at the same moment.
 */
export async function consumeSignInLink(app: AppContext, email: string, token: string, factor: SecondFactor = { attempts: processLoginAttempts() }): Promise<string> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 256 || typeof email !== 'string') throw new VerificationError();
  const identifier = normalizeEmail(email);
  const db = app.database.kysely();
  await deleteExpiredSignInLinks(db);
  const link = await db
    .selectFrom(`${VERIFICATION_TOKENS_TABLE} as v`)
    .innerJoin('tessera_users as u', 'u.email', 'v.identifier')
    .select(['v.expires', 'u.id', 'u.status', 'u.tfa_secret'])
    .where('v.token', '=', hashLinkToken(token))
    .where('v.identifier', '=', identifier)
    .executeTakeFirst();
  if (!link || new Date(link.expires).getTime() <= Date.now() || link.status !== 'active') throw new VerificationError();
  if (link.tfa_secret) {
    assertOtpPresent(factor.otp);
    if (!(await acceptStoredOtp(db, requireSecret(app.config), link.id, link.tfa_secret, factor.otp))) {
      await recordFailedLogin(db, factor.attempts, link.id, app.accessStamps);
      throw new InvalidOtpError();
    }
    await factor.attempts.reset(link.id);
  }
  const used = await db
    .deleteFrom(VERIFICATION_TOKENS_TABLE)
    .where('token', '=', hashLinkToken(token))
    .where('identifier', '=', identifier)
    .where('expires', '>', new Date())
    .returning(['token'])
    .executeTakeFirst();
  if (!used) throw new VerificationError();
  return link.id;
}
