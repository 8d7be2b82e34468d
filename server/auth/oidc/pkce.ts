import type { ServerMetadata } from 'openid-client';
import { ProviderSignInError } from './sign-in-error.ts';

/** PKCE methods in order of preference (SPEC §5). */
export type PkceMethod = 'S256' | 'plain';

/**
 * S256 when the issuer's metadata lists it, else plain; an issuer that lists neither (or publishes no
 * code_challenge_methods_supported at all) is refused with SPEC §5's message.
 */
export function choosePkceMethod(metadata: Pick<ServerMetadata, 'code_challenge_methods_supported'>): PkceMethod {
  const supported = Array.isArray(metadata.code_challenge_methods_supported) ? metadata.code_challenge_methods_supported : [];
  if (supported.includes('S256')) return 'S256';
  if (supported.includes('plain')) return 'plain';
  throw new ProviderSignInError('OAuthSignin', 'neither code_challenge_method supported by the client is supported by the issuer');
}
