import type { Kysely } from 'kysely';
import * as yup from 'yup';
import type { AppContext } from '../../app-context.ts';
import type { AuthProviderConfig } from '../../config/load-config.ts';
import { endUserAccess } from '../access-stamps.ts';
import { normalizeEmail } from '../email.ts';
import { profileWithoutSecrets } from './auth-data.ts';
import type { ProviderProfile } from './provider-profile.ts';
import { ACCESS_DENIED_MESSAGE, ACCOUNT_NOT_LINKED_MESSAGE, ProviderSignInError } from './sign-in-error.ts';

const emailSchema = yup.string().email().max(128);

/**
 * The user a provider profile signs in as, whatever the driver. Users are linked by provider +
 * external_identifier; their auth_data keeps the profile minus secrets and the latest refresh token the
 * provider issued. Unknown profiles become new active users only when the provider allows public
 * registration; an e-mail that already belongs to another user is OAuthAccountNotLinked, so a provider
 * account cannot take over a user of another sign-in method.
 */
export async function findOrCreateProviderUser(app: AppContext, provider: AuthProviderConfig, profile: ProviderProfile): Promise<string> {
  const db = app.database.kysely();
  const authData = JSON.stringify({ profile: profileWithoutSecrets(profile.claims), ...(profile.refreshToken ? { refresh_token: profile.refreshToken } : {}) });
  const email = profileEmail(profile.claims[provider.emailKey]);
  const names = { first_name: shortText(provider.firstNameKey && profile.claims[provider.firstNameKey]), last_name: shortText(provider.lastNameKey && profile.claims[provider.lastNameKey]) };
  const linked = await db
    .selectFrom('tessera_users')
    .select(['id', 'status', 'email', 'role'])
    .where('provider', '=', provider.name)
    .where('external_identifier', '=', profile.identifier)
    .executeTakeFirst();
  if (linked) {
    if (linked.status !== 'active') throw new ProviderSignInError('AccessDenied', ACCESS_DENIED_MESSAGE);
    const changes: Record<string, unknown> = { auth_data: authData };
    if (provider.syncUserInfo) {
      Object.assign(changes, names);
      // The new address is taken over only when no other user has it (no silent take-over, as on sign-up).
      if (email && email !== linked.email && !(await emailOwner(db, email))) changes.email = email;
    }
    const newRole = profile.roleId !== undefined && profile.roleId !== linked.role;
    if (newRole) changes.role = profile.roleId;
    const ended = await db.transaction().execute(async (trx) => {
      await trx.updateTable('tessera_users').set(changes).where('id', '=', linked.id).execute();
      // A new role from the directory's groups ends what was issued under the old one (docs/auth.md, "Ending access").
      return newRole ? endUserAccess(trx, [linked.id as string]) : null;
    });
    if (ended) app.accessStamps.publish(ended);
    return linked.id as string;
  }

  if (email && (await emailOwner(db, email))) throw new ProviderSignInError('OAuthAccountNotLinked', ACCOUNT_NOT_LINKED_MESSAGE);
  if (!provider.allowPublicRegistration) throw new ProviderSignInError('AccessDenied', ACCESS_DENIED_MESSAGE);

  try {
    const created = await db
      .insertInto('tessera_users')
      .values({
        provider: provider.name,
        external_identifier: profile.identifier,
        email,
        ...names,
        role: profile.roleId === undefined ? provider.defaultRoleId : profile.roleId,
        status: 'active',
        auth_data: authData,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return created.id as string;
  } catch (error) {
    // A concurrent first sign-in, or a DEFAULT_ROLE_ID that names no role.
    throw new ProviderSignInError('OAuthCreateAccount', 'The user could not be created.', { cause: error });
  }
}

async function emailOwner(db: Kysely<any>, email: string): Promise<string | null> {
  const owner = await db.selectFrom('tessera_users').select('id').where('email', '=', email).executeTakeFirst();
  return (owner?.id as string | undefined) ?? null;
}

/** The profile's e-mail, normalised as everywhere else (SPEC §5); null when absent or not an address. */
function profileEmail(value: unknown): string | null {
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== 'string') return null;
  const email = normalizeEmail(value);
  return emailSchema.isValidSync(email) ? email : null;
}

/** A name field cut to the 50 characters users.first_name and last_name hold. */
function shortText(value: unknown): string | null {
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 50) : null;
}
