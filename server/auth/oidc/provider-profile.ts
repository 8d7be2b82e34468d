import type { AuthProviderConfig } from '../../config/load-config.ts';
import { ProviderSignInError } from './sign-in-error.ts';

/** Who a provider says signed in, whatever the driver. */
export interface ProviderProfile {
  /** The identifier-key field, as text (users.external_identifier). */
  identifier: string;
  /** The profile's fields (ID token claims and user info, user-info answer, directory attributes, assertion attributes). */
  claims: Record<string, unknown>;
  /** Kept in users.auth_data; never returned by the API. */
  refreshToken: string | null;
  /** A directory's group mapping: the role the user gets (null: none); undefined when the driver maps no groups. */
  roleId?: string | null;
}

/** A completed redirect sign-in: the profile and where the browser goes next. */
export interface CompletedAuthorization {
  profile: ProviderProfile;
  callbackUrl: string;
}

/** The profile's identifier field as text; a profile without one is refused (SPEC §5: "A provider profile must contain an id"). */
export function profileIdentifier(provider: AuthProviderConfig, claims: Record<string, unknown>): string {
  const identifier = claims[provider.identifierKey];
  if ((typeof identifier !== 'string' && typeof identifier !== 'number') || String(identifier) === '') {
    throw new ProviderSignInError('OAuthCallback', `A provider profile must contain an id: the "${provider.identifierKey}" claim is missing.`);
  }
  if (String(identifier).length > 255) throw new ProviderSignInError('OAuthCallback', `The "${provider.identifierKey}" claim is longer than 255 characters.`);
  return String(identifier);
}
