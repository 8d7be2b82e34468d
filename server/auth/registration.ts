import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { matchesFilter } from '../query/in-memory-filter.ts';
import { readBranding } from '../mail/branding.ts';
import { registrationMail } from '../mail/templates/registration.ts';
import { ItemsService } from '../services/items/items-service.ts';
import { SETTINGS_ID } from '../services/settings-service.ts';
import { systemAccountability } from './accountability.ts';
import { normalizeEmail } from './email.ts';
import { signEmailToken, verifyEmailToken } from './email-tokens.ts';
import { resolveLinkPage, withParams } from './link-urls.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { requireSecret } from './secret-keys.ts';

/** The route a verification link opens unless the registration names an allowed page. */
export const VERIFY_EMAIL_PATH = '/users/register/verify-email';

/** What someone registering sends (Directus's `POST /users/register` body). */
export interface Registration {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

/** The page a verification link opens: `verification_url` when allowed (else 400 naming it), Tessera's own route otherwise. */
export function verificationPage(app: AppContext, requested: string | undefined): URL {
  const { server, registration } = app.config;
  return resolveLinkPage(requested, `${server.publicUrl}${VERIFY_EMAIL_PATH}`, registration.urlAllowList, 'verification_url');
}

/** Whether the project's e-mail filter lets `email` register; a filter Tessera cannot evaluate lets nobody in. */
function emailAllowed(app: AppContext, filter: unknown, email: string): boolean {
  if (filter === null || filter === undefined) return true;
  try {
    return matchesFilter(filter, { email });
  } catch (error) {
    app.logger.warn({ err: error }, 'settings.public_registration_email_filter cannot be evaluated; registration refused');
    return false;
  }
}

/**
 * Public registration, as Directus does it: refused (403) unless settings.public_registration is on and
 * the address passes public_registration_email_filter; a new user gets public_registration_role and is
 * `unverified` until the mailed link is opened (or `active` at once when public_registration_verify_email
 * is off). An address that already has an account answers the same 204 after the same work (a password
 * hash), so the route does not reveal who is registered; an unverified one gets its link again.
 */
export async function registerUser(app: AppContext, input: Registration, page: URL): Promise<void> {
  const db = app.database.kysely();
  const settings = await db
    .selectFrom('tessera_settings')
    .select(['public_registration', 'public_registration_verify_email', 'public_registration_role', 'public_registration_email_filter'])
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
  if (!settings?.public_registration) throw new ForbiddenError();
  const email = normalizeEmail(input.email);
  if (!emailAllowed(app, settings.public_registration_email_filter, email)) throw new ForbiddenError();
  await assertPasswordPolicy(db, input.password);
  const verify = settings.public_registration_verify_email !== false;
  const existing = await db.selectFrom('tessera_users').select(['id', 'status']).where('email', '=', email).executeTakeFirst();
  let id: string;
  if (!existing) {
    const users = new ItemsService('tessera_users', { ...app.servicesContext(systemAccountability()), schema: await app.schema.get() });
    const user = { email, password: input.password, role: settings.public_registration_role ?? null, status: verify ? 'unverified' : 'active', first_name: input.first_name ?? null, last_name: input.last_name ?? null };
    id = String(await users.createOne(user));
  } else {
    await hashPassword(input.password, app.config.auth.hash);
    if (existing.status !== 'unverified') return;
    id = existing.id as string;
  }
  if (!verify) return;
  const ttl = app.config.registration.tokenTtlMs;
  const token = await signEmailToken(requireSecret(app.config), 'register', { userId: id, email, fingerprint: null }, ttl);
  app.mailer.sendLater(async () => {
    const brand = await readBranding(app.database.kysely(), app.config.server.publicUrl);
    await app.mailer.send(registrationMail(brand, { to: email, url: withParams(page, { token }), validForMs: ttl }));
  });
}

/**
 * Opens a verification link: the user it names becomes `active`. Works once: a user no longer
 * `unverified` (or whose address changed) is a 400, as in Directus ("Invalid verification code").
 */
export async function verifyRegistration(app: AppContext, token: string): Promise<string> {
  const claims = await verifyEmailToken(requireSecret(app.config), 'register', token);
  const user = await app.database.kysely().selectFrom('tessera_users').select(['id', 'email', 'status']).where('id', '=', claims.userId).executeTakeFirst();
  if (!user || user.status !== 'unverified' || user.email !== claims.email) throw new InvalidPayloadError('Invalid verification code.', { field: 'token' });
  // Through the ItemsService: the change is recorded in activity and announced like any other user update.
  const users = new ItemsService('tessera_users', { ...app.servicesContext(systemAccountability()), schema: await app.schema.get() });
  await users.updateOne(user.id as string, { status: 'active' });
  return user.id as string;
}
