/**
 * Key names whose values are secrets (credentials, tokens, keys): masked in flow run logs and written as
 * environment references in snapshots. One list, so nothing hidden in one place is shown in another.
 */
const SECRET_KEY = /(^pass$|passw(or)?d|passphrase|pwd|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|authori[sz]ation|credential|signature|bearer|cookie)/i;

/** True when a value stored under `key` (an option name, a header name) is a secret. */
export function isSecretKeyName(key: string): boolean {
  return SECRET_KEY.test(key);
}
