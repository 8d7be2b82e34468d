import { readFileSync } from 'node:fs';

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
