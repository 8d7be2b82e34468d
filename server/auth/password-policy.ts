import type { Kysely } from 'kysely';
import { InvalidPayloadError } from '../errors.ts';
import { PASSWORD_POLICIES, PASSWORD_POLICY_NAMES, type PasswordPolicyName } from '../schema/system/constants.ts';

/** What each policy asks for, in the words an error message uses (SPEC.md §9). */
const REQUIREMENTS: Readonly<Record<PasswordPolicyName, string>> = {
  none: 'any password',
  weak: 'at least 8 characters',
  strong: 'at least 8 characters with a digit, a lowercase letter, an uppercase letter and a special character, and no whitespace',
};

/** The project's password policy (settings.auth_password_policy); `none` before the settings row exists. */
export async function readPasswordPolicy(db: Kysely<any>): Promise<PasswordPolicyName> {
  const row = await db.selectFrom('tessera_settings').select('auth_password_policy').executeTakeFirst();
  const name = row?.auth_password_policy;
  return PASSWORD_POLICY_NAMES.includes(name) ? name : 'none';
}

/** Null when `password` satisfies `policy`, else a message saying what the policy requires. */
export function passwordPolicyViolation(policy: PasswordPolicyName, password: string): string | null {
  const pattern = PASSWORD_POLICIES[policy];
  if (!pattern || pattern.test(password)) return null;
  return `Password doesn't meet the ${policy} password policy: it needs ${REQUIREMENTS[policy]}.`;
}

/**
 * Throws INVALID_PAYLOAD naming `field` when `password` does not meet settings.auth_password_policy.
 * Every place that sets a password calls it before hashing.
 */
export async function assertPasswordPolicy(db: Kysely<any>, password: string, field = 'password'): Promise<void> {
  const violation = passwordPolicyViolation(await readPasswordPolicy(db), password);
  if (violation) throw new InvalidPayloadError(violation, { field });
}
