import * as yup from 'yup';
import { InvalidPayloadError } from '../errors.ts';
import { normalizeEmail } from './email.ts';

/** The longest address tessera_users.email holds. */
const MAX_EMAIL_LENGTH = 128;

const emailFormat = yup.string().email();

/**
 * The e-mail of a write to tessera_users as SPEC §5 stores it: trimmed, lowercased, anything after a comma
 * in the domain dropped, and a valid address (400 INVALID_PAYLOAD naming `email` otherwise). Null and an
 * absent field pass unchanged. With every write normalised, the unique constraint on email makes the
 * address unique whatever its case (a second account is 400 RECORD_NOT_UNIQUE naming `email`).
 */
export function normalizeUserEmail<T extends Record<string, unknown>>(payload: T): T {
  if (!Object.hasOwn(payload, 'email') || payload.email === null || payload.email === undefined) return payload;
  const { email } = payload;
  if (typeof email !== 'string') throw new InvalidPayloadError('"email" must be a string.', { field: 'email' });
  const normalized = normalizeEmail(email);
  if (normalized.length > MAX_EMAIL_LENGTH) throw new InvalidPayloadError(`"email" must be at most ${MAX_EMAIL_LENGTH} characters long.`, { field: 'email' });
  if (normalized === '' || !emailFormat.isValidSync(normalized)) throw new InvalidPayloadError('"email" must be a valid e-mail address.', { field: 'email' });
  return { ...payload, email: normalized };
}
