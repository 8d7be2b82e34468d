import type { Kysely } from 'kysely';
import { TfaSetupRequiredError } from '../errors.ts';

/**
 * What a user of a role with enforce_tfa may still do before setting TFA up: sign in, refresh and out
 * (/auth), read themselves (GET /users/me, which shows `tfa_secret: null`), set TFA up (/users/me/tfa), and
 * reach the server's public info (/server).
 */
export function isTfaSetupRoute(method: string, path: string): boolean {
  if (path === '/auth' || path.startsWith('/auth/')) return true;
  if (path.startsWith('/users/me/tfa/')) return true;
  if (path === '/users/me' && (method === 'GET' || method === 'HEAD')) return true;
  return path === '/server' || path.startsWith('/server/');
}

/** Throws 403 TFA_SETUP_REQUIRED when the user has not set up two-factor authentication yet. */
export async function assertTfaSetUp(db: Kysely<any>, userId: string): Promise<void> {
  const row = await db.selectFrom('tessera_users').select('tfa_secret').where('id', '=', userId).executeTakeFirst();
  if (row && row.tfa_secret === null) throw new TfaSetupRequiredError();
}
