import { InvalidQueryError, QueryTimeoutError, type TesseraError } from '../errors.ts';

/** The SQLSTATE of a node-postgres error, found on the error or along its `cause` chain. */
function sqlState(error: unknown): string | null {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined, hops = 0; current && hops < 10; current = current.cause as typeof current, hops++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
  }
  return null;
}

/**
 * A statement PostgreSQL stopped: 57014 is query_canceled, raised by statement_timeout and by a cancel
 * request (the client went away). A 503 the client may retry, never a 500.
 */
export function translateCancel(error: unknown): TesseraError | null {
  if (sqlState(error) !== '57014') return null;
  return new QueryTimeoutError('The query took too long and was stopped; narrow the filter, fields or limit and try again.', {}, { cause: error });
}

/**
 * What a read's statement can fail on because of its input, as a client error. Validation refuses these
 * before anything runs; this is the backstop for what only PostgreSQL can judge (its regex dialect, values
 * it cannot represent, expressions too deep for its stack).
 */
export function translateQueryError(error: unknown): TesseraError | null {
  const cancel = translateCancel(error);
  if (cancel) return cancel;
  const state = sqlState(error);
  const options = { cause: error };
  switch (state) {
    case '2201B':
      return new InvalidQueryError('A _regex pattern is not a valid PostgreSQL regular expression.', { field: 'filter', reason: 'INVALID_REGEX' }, options);
    case '22003':
    case '22008':
    case '22007':
    case '22P02':
    case '22009':
    case '22012':
      return new InvalidQueryError('A value in the query is out of range or has the wrong format for its field.', { field: 'filter', reason: 'INVALID_VALUE' }, options);
    case '42883':
    case '42804':
      return new InvalidQueryError('A value in the query has the wrong type for the field it is compared with.', { field: 'filter', reason: 'INVALID_TYPE' }, options);
    case '54001':
    case '54000':
    case '54023':
      return new InvalidQueryError('The query is too complex for the database; use fewer nested conditions, fields or values.', { field: 'filter', reason: 'TOO_COMPLEX' }, options);
    default:
      return null;
  }
}
