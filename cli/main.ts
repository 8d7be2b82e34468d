import { existsSync } from 'node:fs';
import { CommanderError } from 'commander';
import { ConfigError, DatabaseConnectionError, isTesseraError } from '../server/errors.ts';
import { CancelledError, ExitError, SchemaMissingError, UsageError } from './errors.ts';
import { buildProgram, runsBuiltInCommand } from './program.ts';

/** Exit codes: 0 ok, 1 failure, 2 usage (bad flags or arguments). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Maps any failure to a message on stderr and an exit code. */
function exitCodeFor(error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof CancelledError) {
    process.stderr.write('Cancelled.\n');
    return EXIT.ok;
  }
  if (error instanceof ExitError) {
    if (error.message) process.stderr.write(`${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof ConfigError || error instanceof DatabaseConnectionError || error instanceof SchemaMissingError || isTesseraError(error)) {
    process.stderr.write(`${error.message}\n`);
    return EXIT.failure;
  }
  process.stderr.write(`Unexpected error: ${error instanceof Error ? (debug ? error.stack : error.message) : String(error)}\n`);
  return EXIT.failure;
}

/** The CLI entry: loads `.env` from the working folder, runs the command, and owns the exit code. */
export async function main(argv: string[]): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const program = buildProgram();
  let code: number = EXIT.ok;
  let closeExtensions: (() => Promise<void>) | null = null;
  try {
    // A command no built-in declares may come from a hook extension (init('cli.before' | 'cli.after')).
    if (!runsBuiltInCommand(program, argv)) closeExtensions = await (await import('./extension-commands.ts')).addExtensionCommands(program);
    await program.parseAsync(argv);
  } catch (error) {
    code = exitCodeFor(error, argv.includes('--debug'));
  }
  await closeExtensions?.();
  // Exit explicitly: an embedded database or a pool may still hold the event loop open after a command.
  process.exit(code);
}
