import * as yup from 'yup';
import { normalizeEmail } from './email.ts';

/** Messages of a credential field, overriding the defaults (`/auth/login` words them as Directus does). */
export interface CredentialMessages {
  /** Not a string (null included). */
  type?: string;
  /** Not a valid e-mail address. */
  email?: string;
}

/**
 * yup casts numbers (and anything with a toString) to strings; for credentials that hides a client bug
 * and, with our own transforms, objects reached normalizeEmail and crashed. Undo the cast: only real
 * strings pass, everything else fails the type check (400 naming the field).
 */
function keepOriginalUnlessString(value: unknown, original: unknown): unknown {
  return typeof original === 'string' ? value : original;
}

/** A string credential (password, token, otp, …) of at most `max` characters; no casting from other types. */
export function credentialString(max: number, messages: CredentialMessages = {}) {
  const base = yup
    .string()
    .transform(keepOriginalUnlessString)
    .typeError(messages.type ?? '"${path}" must be a string.')
    .max(max, '"${path}" must be at most ${max} characters long.');
  return messages.type ? base.nonNullable(messages.type) : base;
}

/** An e-mail a caller signs in or asks a link with: a string, normalised (SPEC §5), then format-checked. */
export function credentialEmail(messages: CredentialMessages = {}) {
  return credentialString(254, messages)
    .transform((value: unknown) => (typeof value === 'string' ? normalizeEmail(value) : value))
    .email(messages.email ?? '"${path}" must be a valid e-mail address.');
}
