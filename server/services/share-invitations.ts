import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { ForbiddenError } from '../errors.ts';
import { readBranding } from '../mail/branding.ts';
import { shareInvitationMail, shareMailLanguage } from '../mail/templates/share-invitation.ts';
import { ItemsService } from './items/items-service.ts';

/** Where a share's public page lives in the admin (Directus's path). */
export const SHARED_PAGE_PATH = '/admin/shared';

/** The public page of a share. */
export function sharedPageUrl(publicUrl: string, share: string): string {
  return `${publicUrl}${SHARED_PAGE_PATH}/${encodeURIComponent(share)}`;
}

/**
 * `POST /shares/invite`: e-mails the link of a share the caller may read to each address. Only signed-in
 * users invite (not the public role, not a share session); the share is read with the caller's
 * permissions, so an unreadable or unknown share is FORBIDDEN and nothing is sent. Each mail is in the
 * recipient's language when they are a user with one, else the project's default language.
 */
export async function inviteToShare(app: AppContext, accountability: Accountability, input: { share: string; emails: string[] }): Promise<void> {
  if (!accountability.user || accountability.share) throw new ForbiddenError();
  const schema = await app.schema.get();
  const db = app.database.kysely();
  const shares = new ItemsService('tessera_shares', { ...app.servicesContext(accountability), schema });
  const share = await shares.readOne(input.share, { fields: ['id', 'name', 'collection', 'item'] });
  const inviter = await db.selectFrom('tessera_users').select(['first_name', 'last_name', 'email']).where('id', '=', accountability.user).executeTakeFirst();
  const inviterName = [inviter?.first_name, inviter?.last_name].filter(Boolean).join(' ') || inviter?.email || 'Someone';
  const item = typeof share.name === 'string' && share.name.trim() ? share.name.trim() : `${String(share.collection)} ${String(share.item)}`;
  const settings = await db.selectFrom('tessera_settings').select(['default_language']).executeTakeFirst();
  const recipients = [...new Set(input.emails)];
  const known = await db.selectFrom('tessera_users').select(['email', 'language']).where('email', 'in', recipients).execute();
  const languageOf = new Map(known.map((user) => [user.email as string, user.language as string | null]));
  const brand = await readBranding(db, app.config.server.publicUrl);
  const url = sharedPageUrl(app.config.server.publicUrl, String(share.id));
  for (const to of recipients) {
    const language = shareMailLanguage(languageOf.get(to) ?? (settings?.default_language as string | null | undefined));
    await app.mailer.send(shareInvitationMail(brand, { to, inviter: inviterName, item, url, language }));
  }
}
