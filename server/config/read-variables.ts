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

/**
 * Adds one problem per failed check of a yup validation of variables read by readVariables: the variable's
 * name (with `prefix`), the message without the repeated name, and the value given. Rethrows other errors.
 */
export function reportInvalidVariables(error: unknown, raw: Env, problems: string[], prefix = '', unnamed = ''): void {
  if (!(error instanceof ValidationError)) throw error;
  for (const issue of error.inner.length > 0 ? error.inner : [error]) {
    const name = issue.path ?? unnamed;
    const message = issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message;
    problems.push(`${prefix}${name}: ${message} (got ${JSON.stringify(raw[name])})`);
  }
}
