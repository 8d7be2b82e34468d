/** Wrong or missing arguments; exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The person cancelled a prompt; exit code 0. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('Cancelled.');
  }
}

/** A command finished with a result that means failure (e.g. drift found); carries its exit code. */
export class ExitError extends Error {
  override name = 'ExitError';
  readonly exitCode: number;
  constructor(exitCode: number, message = '') {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The database has no (or an outdated) Tessera system schema; exit code 1 (2 for `diff`). */
export class SchemaMissingError extends Error {
  override name = 'SchemaMissingError';
}
