import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import type { LdapProviderConfig } from '../../config/load-config.ts';
import { InvalidCredentialsError, ServiceUnavailableError } from '../../errors.ts';
import { AuthService, type AuthTokens } from '../auth-service.ts';
import { findOrCreateProviderUser } from '../oidc/link-user.ts';
import type { ProviderProfile } from '../oidc/provider-profile.ts';
import type { Accountability } from '../accountability.ts';
import { authenticate, type DirectoryUser } from './ldap-directory.ts';

/** What `POST /auth/login/<provider>` takes for a directory. */
export interface DirectoryCredentials {
  identifier: string;
  password: string;
  otp?: string | null;
}

/**
 * Signs a person in with their directory identifier and password: checks them against the directory,
 * links or creates the user (provider + DN), maps their groups to a role, and opens a session with the
 * same status, ip_access and TFA checks as credentials. Account refusals are the JSON errors of
 * ProviderSignInError (AccessDenied 403, OAuthAccountNotLinked 403, OAuthCreateAccount 503).
 */
export async function loginWithDirectory(app: AppContext, accountability: Accountability, provider: LdapProviderConfig, credentials: DirectoryCredentials): Promise<AuthTokens> {
  const directoryUser = await authenticate(provider, credentials.identifier, credentials.password).catch((error: unknown) => {
    // The operator needs the directory's own reason; the caller gets the 503 without it.
    if (error instanceof ServiceUnavailableError) app.logger.warn({ err: error.cause, provider: provider.name }, error.message);
    throw error;
  });
  const profile: ProviderProfile = {
    identifier: directoryUser.dn,
    claims: { dn: directoryUser.dn, ...directoryUser.attributes, groups: directoryUser.groups },
    refreshToken: null,
    ...(provider.groupDn ? { roleId: await roleOfGroups(app, provider, directoryUser) } : {}),
  };
  if (profile.identifier.length > 255) throw new InvalidCredentialsError('The directory entry\'s DN is longer than 255 characters.');
  const userId = await findOrCreateProviderUser(app, provider, profile);
  return new AuthService(app.servicesContext(accountability)).loginVerifiedUser(userId, provider.name, credentials.otp);
}

/**
 * The role of the first group (by name) whose `cn` is a role's name, case-insensitively; none matching:
 * DEFAULT_ROLE_ID. Runs on every sign-in, so a change of groups in the directory changes the role.
 */
async function roleOfGroups(app: AppContext, provider: LdapProviderConfig, user: DirectoryUser): Promise<string | null> {
  if (user.groups.length === 0) return provider.defaultRoleId;
  const names = [...new Set(user.groups.map((group) => group.toLowerCase()))];
  const role = await app.database
    .kysely()
    .selectFrom('tessera_roles')
    .select('id')
    .where(sql<string>`lower(name)`, 'in', names)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .executeTakeFirst();
  return (role?.id as string | undefined) ?? provider.defaultRoleId;
}
