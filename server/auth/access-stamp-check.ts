import type { AppContext } from '../app-context.ts';
import { InvalidTokenError } from '../errors.ts';

/** Said to the bearer of an access token issued before their access ended. */
export const ACCESS_ENDED_MESSAGE = 'This token was issued before the account was suspended, deleted, given another role or a new password; sign in again.';

/**
 * 401 INVALID_TOKEN when `user`'s access ended at or after `issuedAt` (epoch ms). Costs no database read
 * once this instance knows the user's stamp (AccessStampCache).
 */
export async function assertIssuedAfterStamp(app: Pick<AppContext, 'accessStamps'>, user: string, issuedAt: number): Promise<void> {
  const known = app.accessStamps.validAfter(user);
  const validAfter = typeof known === 'number' ? known : await known;
  if (issuedAt <= validAfter) throw new InvalidTokenError(ACCESS_ENDED_MESSAGE);
}
