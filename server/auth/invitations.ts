import type { AppContext } from '../app-context.ts';
import { InvalidPayloadError } from '../errors.ts';
import { readBranding } from '../mail/branding.ts';
import { invitationMail } from '../mail/templates/invitation.ts';
import { ItemsService } from '../services/items/items-service.ts';
import type { Accountability } from './accountability.ts';
import { invalidEmailToken, passwordFingerprint, signEmailToken, verifyEmailToken } from './email-tokens.ts';
import { resolveLinkPage, withParams } from './link-urls.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { requireSecret } from './secret-keys.ts';

/** Where invitation links point unless the request names an allowed page. */
export const DEFAULT_INVITE_PATH = '/admin/accept-invite';

/** The page an invitation link opens: `invite_url` when allowed (else 400 naming it), the admin's page otherwise. */
export function invitePage(app: AppContext, requested: string | undefined): URL {
  const { server, invite } = app.config;
  return resolveLinkPage(requested, `${server.publicUrl}${DEFAULT_INVITE_PATH}`, invite.urlAllowList, 'invite_url');
}

/**
 * Invites each (normalised) e-mail with `role`: a new user is created with status `invited`, an
 * already invited one gets the role and a fresh e-mail, anyone else is a 400 naming `email`. Writes go
 * through the ItemsService with the caller's accountability, so their permissions apply, in one
 * transaction; the e-mails go out after it commits.
 */
export async function inviteUsers(app: AppContext, accountability: Accountability, input: { emails: string[]; role: string; page: URL }): Promise<void> {
  const schema = await app.schema.get();
  const invited: Array<{ id: string; email: string }> = [];
  await app.database
    .kysely()
    .transaction()
    .execute(async (trx) => {
      const users = new ItemsService('tessera_users', { ...app.servicesContext(accountability, trx), schema });
      for (const email of new Set(input.emails)) {
        const existing = await trx.selectFrom('tessera_users').select(['id', 'status']).where('email', '=', email).executeTakeFirst();
        if (!existing) {
          invited.push({ id: String(await users.createOne({ email, role: input.role, status: 'invited' })), email });
        } else if (existing.status === 'invited') {
          await users.updateOne(existing.id, { role: input.role });
          invited.push({ id: existing.id, email });
        } else {
          // Only a caller who may see this user learns that it exists; anyone else gets FORBIDDEN.
          await users.readOne(existing.id, { fields: ['id'] });
          throw new InvalidPayloadError(`A user with the e-mail "${email}" already exists.`, { field: 'email' });
        }
      }
    });
  const brand = await readBranding(app.database.kysely(), app.config.server.publicUrl);
  const ttl = app.config.invite.tokenTtlMs;
  for (const user of invited) {
    const token = await signEmailToken(requireSecret(app.config), 'invite', { userId: user.id, email: user.email, fingerprint: passwordFingerprint(null) }, ttl);
    await app.mailer.send(invitationMail(brand, { to: user.email, url: withParams(input.page, { token }), validForMs: ttl }));
  }
}

/**
 * Accepts an invitation: sets the password (policy applied) and makes the user `active`. Works once:
 * the update requires the user to still be `invited` without a password.
 */
export async function acceptInvite(app: AppContext, token: string, password: string): Promise<void> {
  const claims = await verifyEmailToken(requireSecret(app.config), 'invite', token);
  const db = app.database.kysely();
  const user = await db.selectFrom('tessera_users').select(['id', 'email', 'password', 'status']).where('id', '=', claims.userId).executeTakeFirst();
  if (!user || user.status !== 'invited' || user.email !== claims.email || passwordFingerprint(user.password) !== claims.fingerprint) throw invalidEmailToken();
  await assertPasswordPolicy(db, password);
  const hash = await hashPassword(password, app.config.auth.hash);
  const updated = await db
    .updateTable('tessera_users')
    .set({ password: hash, status: 'active' })
    .where('id', '=', user.id)
    .where('status', '=', 'invited')
    .where('password', 'is', null)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw invalidEmailToken();
}
