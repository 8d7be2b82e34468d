import { describe, expect, it } from 'vitest';
import * as errors from '../../server/errors.ts';
import { ConfigError, ERROR_CODES, InternalError, InvalidCredentialsError, InvalidPayloadError, isTesseraError, TesseraError } from '../../server/errors.ts';

type ConcreteError = new (message?: string) => TesseraError;

/** Every concrete TesseraError subclass exported by server/errors.ts. */
const errorClasses = (Object.values(errors) as unknown[]).filter(
  (value): value is ConcreteError => typeof value === 'function' && value.prototype instanceof TesseraError,
);

describe('error classes', () => {
  it('cover every code in ERROR_CODES exactly once', () => {
    const codes = errorClasses.map((ErrorClass) => new ErrorClass('message').code);
    expect(codes.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it.each(errorClasses.map((ErrorClass) => [ErrorClass.name, ErrorClass] as const))('%s has the status of its code', (name, ErrorClass) => {
    const error = new ErrorClass('message');
    expect(error.status).toBe(ERROR_CODES[error.code]);
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
    expect(isTesseraError(error)).toBe(true);
  });

  it('exposes messages except for InternalError', () => {
    for (const ErrorClass of errorClasses) {
      expect(new ErrorClass('message').expose).toBe(ErrorClass !== InternalError);
    }
  });

  it('keeps extensions and cause', () => {
    const cause = new Error('root');
    const error = new InvalidPayloadError('bad', { field: 'title' }, { cause });
    expect(error.extensions).toEqual({ field: 'title' });
    expect(error.cause).toBe(cause);
  });

  it('gives default messages where the code implies one', () => {
    expect(new InvalidCredentialsError().message).toBe('Invalid user credentials.');
  });

  it('does not treat plain errors as Tessera errors', () => {
    expect(isTesseraError(new Error('x'))).toBe(false);
    expect(isTesseraError({ code: 'FORBIDDEN', status: 403 })).toBe(false);
  });
});

describe('ConfigError', () => {
  it('lists every problem in its message', () => {
    const error = new ConfigError(['PORT: must be a port number', 'SECRET: must be at least 32 characters']);
    expect(error.name).toBe('ConfigError');
    expect(error.problems).toHaveLength(2);
    expect(error.message).toBe('Invalid configuration:\n  - PORT: must be a port number\n  - SECRET: must be at least 32 characters');
    expect(isTesseraError(error)).toBe(false);
  });
});
