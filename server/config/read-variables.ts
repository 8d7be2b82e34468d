import { readFileSync } from 'node:fs';
import { ValidationError } from 'yup';

type Env = Record<string, string | undefined>;

/**
 * The values of `names` (each with its `prefix`): a `NAME_FILE` twin is read from its file (trimmed), an
 * empty value counts as unset, and an unreadable file is reported in `problems`. Keys of the result are the
 * names without the prefix.
 */
export function readVariables(env: Env, names: readonly string[], problems: string[], prefix = ''): Env {
  const resolved: Env = {};
  for (const name of names) {
    const variable = `${prefix}${name}`;
    const fromFile = env[`${variable}_FILE`];
    if (fromFile === undefined || fromFile === '') {
      resolved[name] = env[variable] === '' ? undefined : env[variable];
      continue;
    }
    try {
      resolved[name] = readFileSync(fromFile, 'utf8').trim();
    } catch (error) {
      problems.push(`${variable}_FILE: cannot read ${fromFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return resolved;
}

/** Variables whose value is a secret: SECRET itself and every *_SECRET, *_PASSWORD, *_TOKEN(S) and *_KEY. */
export function isSecretVariable(name: string): boolean {
  return /(^|_)(SECRET|PASSWORD|TOKENS?|KEY)$/.test(name);
}

/** `value` as shown in an error when it is meant to be a URL: its password masked; text that is no URL not shown (it may hold one). */
function describeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `text of ${value.length} characters that is not a URL, not shown`;
  }
  if (!url.password) return JSON.stringify(value);
  url.password = '***';
  return JSON.stringify(url.href);
}

/**
 * How an error message shows the value given for `name`: quoted; a secret variable's value never (its
 * length, which helps with "must be at least 32 characters"); a URL's password masked.
 */
export function describeGivenValue(name: string, value: string | undefined): string {
  if (value === undefined) return 'undefined';
  if (isSecretVariable(name)) return `a value of ${value.length} characters, not shown`;
  if (name.endsWith('_URL')) return describeUrl(value);
  return JSON.stringify(value);
}

/**
 * Adds one problem per failed check of a yup validation of variables read by readVariables: the variable's
 * name (with `prefix`), the message without the repeated name, and the value given (never a secret's; a
 * URL's password masked). Rethrows other errors.
 */
export function reportInvalidVariables(error: unknown, raw: Env, problems: string[], prefix = '', unnamed = ''): void {
  if (!(error instanceof ValidationError)) throw error;
  for (const issue of error.inner.length > 0 ? error.inner : [error]) {
    const name = issue.path ?? unnamed;
    const message = issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message;
    problems.push(`${prefix}${name}: ${message} (got ${describeGivenValue(`${prefix}${name}`, raw[name])})`);
  }
}
