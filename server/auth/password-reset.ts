import type { AppContext } from '../app-context.ts';
import { readBranding } from '../mail/branding.ts';
import { endUserAccess } from './access-stamps.ts';
import { passwordResetMail } from '../mail/templates/password-reset.ts';
import { normalizeEmail } from './email.ts';
import { invalidEmailToken, passwordFingerprint, signEmailToken, verifyEmailToken } from './email-tokens.ts';
import { resolveLinkPage, withParams } from './link-urls.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { requireSecret } from './secret-keys.ts';

/** Where reset links point unless the request names an allowed page. */
export const DEFAULT_RESET_PATH = '/admin/reset-password';

/** The page a reset link opens: `reset_url` when allowed (else 400 naming it), the admin's page otherwise. */
export function passwordResetPage(app: AppContext, requested: string | undefined): URL {
  const { server, passwordReset } = app.config;
  return resolveLinkPage(requested, `${server.publicUrl}${DEFAULT_RESET_PATH}`, passwordReset.urlAllowList, 'reset_url');
}

/**
 * Mails a reset link when an active user has this e-mail. The lookup and the mail happen after the
 * response (mailer.sendLater), so the answer is the same, in the same time, for any address.
 */
export function requestPasswordReset(app: AppContext, email: string, page: URL): void {
  app.mailer.sendLater(async () => {
    const db = app.database.kysely();
    const user = await db.selectFrom('tessera_users').select(['id', 'email', 'password', 'status']).where('email', '=', normalizeEmail(email)).executeTakeFirst();
    if (!user || user.status !== 'active') return;
    const ttl = app.config.passwordReset.tokenTtlMs;
    const token = await signEmailToken(requireSecret(app.config), 'password-reset', { userId: user.id, email: user.email, fingerprint: passwordFingerprint(user.password) }, ttl);
    const brand = await readBranding(db, app.config.server.publicUrl);
    await app.mailer.send(passwordResetMail(brand, { to: user.email, url: withParams(page, { token }), validForMs: ttl }));
  });
}

/**
 * Sets a new password with a reset token. The token names the password hash it was issued for, and the
 * update only happens while that hash is current, so a token works once (even when two requests race).
 * The user's sessions and access tokens end: whoever knew the old password is signed out.
 */
export async function resetPassword(app: AppContext, token: string, password: string): Promise<void> {
  const claims = await verifyEmailToken(requireSecret(app.config), 'password-reset', token);
  const db = app.database.kysely();
  const user = await db.selectFrom('tessera_users').select(['id', 'email', 'password', 'status']).where('id', '=', claims.userId).executeTakeFirst();
  if (!user || user.status !== 'active' || user.email !== claims.email || passwordFingerprint(user.password) !== claims.fingerprint) throw invalidEmailToken();
  await assertPasswordPolicy(db, password);
  const hash = await hashPassword(password, app.config.auth.hash);
  const ended = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('tessera_users')
      .set({ password: hash })
      .where('id', '=', user.id)
      .where((eb) => (user.password === null ? eb('password', 'is', null) : eb('password', '=', user.password)))
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw invalidEmailToken();
    return endUserAccess(trx, [user.id]);
  });
  app.accessStamps.publish(ended);
}
