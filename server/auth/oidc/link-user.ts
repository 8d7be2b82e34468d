import * as yup from 'yup';
import type { AppContext } from '../../app-context.ts';
import type { AuthProviderConfig } from '../../config/load-config.ts';
import { normalizeEmail } from '../email.ts';
import type { ProviderProfile } from './callback.ts';
import { ACCESS_DENIED_MESSAGE, ACCOUNT_NOT_LINKED_MESSAGE, ProviderSignInError } from './sign-in-error.ts';

const emailSchema = yup.string().email().max(128);

/**
 * The user a provider profile signs in as. Users are linked by provider + external_identifier; their
 * auth_data keeps the latest refresh token the provider issued. Unknown profiles become new active users
 * only when the provider allows public registration; an e-mail that already belongs to another user is
 * OAuthAccountNotLinked, so a provider account cannot take over a user of another sign-in method.
 */
export async function findOrCreateProviderUser(app: AppContext, provider: AuthProviderConfig, profile: ProviderProfile): Promise<string> {
  const db = app.database.kysely();
  // Kept only when the provider issues a refresh token (scope offline_access or the provider's own rules).
  const authData = profile.refreshToken ? JSON.stringify({ refresh_token: profile.refreshToken }) : null;
  const linked = await db
    .selectFrom('tessera_users')
    .select(['id', 'status'])
    .where('provider', '=', provider.name)
    .where('external_identifier', '=', profile.identifier)
    .executeTakeFirst();
  if (linked) {
    if (linked.status !== 'active') throw new ProviderSignInError('AccessDenied', ACCESS_DENIED_MESSAGE);
    if (authData) await db.updateTable('tessera_users').set({ auth_data: authData }).where('id', '=', linked.id).execute();
    return linked.id as string;
  }

  const email = profileEmail(profile.claims.email);
  if (email) {
    const taken = await db.selectFrom('tessera_users').select('id').where('email', '=', email).executeTakeFirst();
    if (taken) throw new ProviderSignInError('OAuthAccountNotLinked', ACCOUNT_NOT_LINKED_MESSAGE);
  }
  if (!provider.allowPublicRegistration) throw new ProviderSignInError('AccessDenied', ACCESS_DENIED_MESSAGE);

  try {
    const created = await db
      .insertInto('tessera_users')
      .values({
        provider: provider.name,
        external_identifier: profile.identifier,
        email,
        first_name: shortText(profile.claims.given_name),
        last_name: shortText(profile.claims.family_name),
        role: provider.defaultRoleId,
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

/** The profile's e-mail, normalised as everywhere else (SPEC §5); null when absent or not an address. */
function profileEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = normalizeEmail(value);
  return emailSchema.isValidSync(email) ? email : null;
}

/** A name claim cut to the 50 characters users.first_name and last_name hold. */
function shortText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 50) : null;
}
