import * as clack from '@clack/prompts';
import { CancelledError, UsageError } from './errors.ts';

/**
 * The only user of @clack/prompts. Every question has a flag twin: without a terminal, with CI=true or
 * with --yes, asking is a usage error that names the flag (clack would otherwise wait forever).
 */
export function canPrompt(yes = false): boolean {
  return !yes && process.stdin.isTTY === true && process.stdout.isTTY === true && !process.env.CI;
}

function settle<T>(value: T): Exclude<T, symbol> {
  if (clack.isCancel(value)) throw new CancelledError();
  return value as Exclude<T, symbol>;
}

function refuse(flag: string): never {
  throw new UsageError(`Missing ${flag} (no terminal to ask on; pass the flag).`);
}

/** Asks for a line of text, or fails naming `flag` when no one can answer. */
export async function askText(options: { message: string; flag: string; defaultValue?: string; placeholder?: string; validate?: (value: string) => string | undefined; yes?: boolean }): Promise<string> {
  if (!canPrompt(options.yes)) {
    if (options.defaultValue !== undefined) return options.defaultValue;
    refuse(options.flag);
  }
  return settle(
    await clack.text({
      message: options.message,
      placeholder: options.placeholder ?? options.defaultValue,
      defaultValue: options.defaultValue,
      validate: options.validate ? (value) => options.validate!(value ?? '') : undefined,
    }),
  );
}

/** Asks for a secret without echoing it; an empty answer returns ''. */
export async function askPassword(options: { message: string; flag: string; allowEmpty?: boolean; yes?: boolean }): Promise<string> {
  if (!canPrompt(options.yes)) {
    if (options.allowEmpty) return '';
    refuse(options.flag);
  }
  return settle(
    await clack.password({
      message: options.message,
      validate: (value) => (!value && options.allowEmpty ? undefined : (value ?? '').length < 8 ? 'At least 8 characters.' : undefined),
    }),
  );
}

/** Asks to pick one of `choices`. */
export async function askSelect<T extends string>(options: { message: string; flag: string; choices: Array<{ value: T; label: string; hint?: string }>; defaultValue?: T; yes?: boolean }): Promise<T> {
  if (!canPrompt(options.yes)) {
    if (options.defaultValue !== undefined) return options.defaultValue;
    refuse(options.flag);
  }
  return settle(await clack.select<T>({ message: options.message, options: options.choices as never, initialValue: options.defaultValue }));
}

/** Asks yes or no; without a terminal the answer is `fallback`. */
export async function askConfirm(options: { message: string; fallback: boolean; yes?: boolean }): Promise<boolean> {
  if (options.yes) return true;
  if (!canPrompt()) return options.fallback;
  return settle(await clack.confirm({ message: options.message, initialValue: options.fallback }));
}

/** Human-facing output (goes to stdout; `--json` output bypasses these). */
export const say = {
  intro: (title: string) => clack.intro(title),
  outro: (message: string) => clack.outro(message),
  info: (message: string) => clack.log.info(message),
  success: (message: string) => clack.log.success(message),
  warn: (message: string) => clack.log.warn(message),
  error: (message: string) => clack.log.error(message),
  note: (message: string, title?: string) => clack.note(message, title),
};

/** Progress of a long task: a spinner on a terminal, a line on stderr every `every` steps otherwise. */
export function startProgress(title: string, every = 25): { advance(done: number, total: number, label: string): void; stop(message: string): void } {
  if (canPrompt()) {
    const spinner = clack.spinner();
    spinner.start(title);
    return {
      advance: (done, total, label) => spinner.message(`${title} ${done}/${total}: ${label}`),
      stop: (message) => spinner.stop(message),
    };
  }
  return {
    advance: (done, total, label) => {
      if (done === total || done % every === 0) process.stderr.write(`${title} ${done}/${total}: ${label}\n`);
    },
    stop: (message) => process.stderr.write(`${message}\n`),
  };
}
