import * as yup from 'yup';
import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { validatePayload } from '../../../server/services/validate-payload.ts';
import { thrown } from '../../helpers/thrown.ts';

const schema = yup.object({
  email: yup.string().email('must be an e-mail address').required('is required'),
  password: yup.string().min(8, 'must be at least 8 characters'),
  age: yup.number().typeError('must be a number'),
});

/** Runs validatePayload and returns the error it throws. */
const failure = (payload: unknown): InvalidPayloadError => thrown(() => validatePayload(schema, payload), InvalidPayloadError);

describe('validatePayload', () => {
  it('returns the cast payload when it is valid', () => {
    expect(validatePayload(schema, { email: 'a@b.co', age: '42' })).toEqual({ email: 'a@b.co', age: 42 });
  });

  it('keeps unknown keys (they are not stripped)', () => {
    expect(validatePayload(schema, { email: 'a@b.co', extra: true })).toEqual({ email: 'a@b.co', extra: true });
  });

  it('names the first failing field and lists every failure', () => {
    const error = failure({ email: 'not-an-email', password: 'short', age: 'old' });
    expect(error).toMatchObject({ code: 'INVALID_PAYLOAD', status: 400, message: 'must be an e-mail address' });
    expect(error.extensions.field).toBe('email');
    expect(error.extensions.errors).toEqual([
      { field: 'email', message: 'must be an e-mail address' },
      { field: 'password', message: 'must be at least 8 characters' },
      { field: 'age', message: 'must be a number' },
    ]);
  });

  it('reports a single failure alone', () => {
    const error = failure({ email: 'a@b.co', password: 'short' });
    expect(error.extensions.field).toBe('password');
    expect(error.extensions.errors).toEqual([{ field: 'password', message: 'must be at least 8 characters' }]);
  });

  it('reports an object-level rule as a single failure', () => {
    const error = failure(['not', 'an', 'object']);
    expect(error.extensions.errors).toHaveLength(1);
  });

  it('leaves extensions.field unset when the failure is not about one field', () => {
    const matching = yup.object({ password: yup.string(), confirm: yup.string() }).test('match', 'passwords differ', (value) => value.password === value.confirm);
    expect(() => validatePayload(matching, { password: 'a', confirm: 'b' })).toThrow(expect.objectContaining({ extensions: { errors: [{ field: null, message: 'passwords differ' }] } }));
  });

  it('rethrows errors that are not validation errors', () => {
    const broken = yup.object({ name: yup.string().test('explodes', 'unused', () => { throw new TypeError('bug in a test'); }) });
    expect(() => validatePayload(broken, { name: 'x' })).toThrow(TypeError);
  });
});
