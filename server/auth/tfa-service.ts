import { InvalidCredentialsError, InvalidOtpError, InvalidPayloadError } from '../errors.ts';
import type { ServiceContext } from '../services/service-context.ts';
import { verifyPassword } from './passwords.ts';
import { deriveKey, requireSecret } from './secret-keys.ts';
import { acceptFirstOtp, acceptStoredOtp } from './tfa-login.ts';
import { isTotpSecret, newTotpSecret, totpUrl } from './tfa-otp.ts';
import { encryptTfaSecret } from './tfa-secret-crypto.ts';

/** What an authenticator app needs to be set up: the secret and the otpauth:// address (for a QR code). */
export interface TfaSetup {
  secret: string;
  otpauth_url: string;
}

/**
 * Two-factor authentication of the signed-in user: a secret is generated (after the password is checked
 * again), enabled once the user proves their app produces its codes, and disabled with a current code.
 * The secret is stored encrypted (AES-256-GCM, key derived from SECRET); the plain secret is only ever
 * held by the user's authenticator app and, briefly, by the client setting it up.
 */
export class TfaService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  /** A fresh secret and its otpauth:// address; nothing is stored until `enable`. */
  async generate(userId: string, password: string): Promise<TfaSetup> {
    const user = await this.#user(userId);
    if (!user.password || !(await verifyPassword(user.password, password))) throw new InvalidCredentialsError('Invalid password.', { field: 'password' });
    if (user.tfa_secret) throw new InvalidPayloadError('Two-factor authentication is already enabled; disable it first to set up a new secret.');
    const settings = await this.#context.db.selectFrom('tessera_settings').select('project_name').executeTakeFirst();
    const secret = newTotpSecret();
    return { secret, otpauth_url: totpUrl(secret, settings?.project_name || 'Tessera', user.email ?? userId) };
  }

  /** Stores `secret` (encrypted) once `otp` shows the authenticator app produces its codes. */
  async enable(userId: string, secret: string, otp: string): Promise<void> {
    const user = await this.#user(userId);
    if (user.tfa_secret) throw new InvalidPayloadError('Two-factor authentication is already enabled.');
    if (!isTotpSecret(secret)) throw new InvalidPayloadError('"secret" must be the base32 secret returned by /users/me/tfa/generate.', { field: 'secret' });
    if (!(await acceptFirstOtp(this.#context.db, userId, secret, otp))) throw new InvalidOtpError();
    const stored = encryptTfaSecret(secret, deriveKey(requireSecret(this.#context.config), 'tfa-secret'), userId);
    await this.#context.db.updateTable('tessera_users').set({ tfa_secret: stored }).where('id', '=', userId).execute();
  }

  /** Turns two-factor authentication off; needs a current code, so a stolen session alone cannot. */
  async disable(userId: string, otp: string): Promise<void> {
    const user = await this.#user(userId);
    if (!user.tfa_secret) throw new InvalidPayloadError('Two-factor authentication is not enabled.');
    if (!(await acceptStoredOtp(this.#context.db, requireSecret(this.#context.config), userId, user.tfa_secret, otp))) throw new InvalidOtpError();
    await this.#context.db.updateTable('tessera_users').set({ tfa_secret: null }).where('id', '=', userId).execute();
  }

  async #user(userId: string): Promise<{ email: string | null; password: string | null; tfa_secret: string | null }> {
    const user = await this.#context.db.selectFrom('tessera_users').select(['email', 'password', 'tfa_secret']).where('id', '=', userId).executeTakeFirst();
    // The caller's token outlived the user: the same answer as for no token at all.
    if (!user) throw new InvalidCredentialsError();
    return user;
  }
}
