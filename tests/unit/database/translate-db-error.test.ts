import { describe, expect, it } from 'vitest';
import { translateDatabaseError, withDatabaseErrors } from '../../../server/database/translate-db-error.ts';
import { InvalidPayloadError, RecordNotUniqueError } from '../../../server/errors.ts';

/** An object shaped like node-postgres's `DatabaseError`. */
function pgError(fields: { code: string; detail?: string; column?: string; constraint?: string; table?: string }): Error {
  return Object.assign(new Error('database error'), { severity: 'ERROR', ...fields });
}

const uniqueEmail = pgError({ code: '23505', detail: 'Key (email)=(a@b.c) already exists.', table: 'tessera_users', constraint: 'tessera_users_email_unique' });

describe('translateDatabaseError', () => {
  it('maps 23505 to RECORD_NOT_UNIQUE naming the field from the detail', () => {
    const error = translateDatabaseError(uniqueEmail);
    expect(error).toBeInstanceOf(RecordNotUniqueError);
    expect(error).toMatchObject({ code: 'RECORD_NOT_UNIQUE', status: 400, extensions: { field: 'email', collection: 'tessera_users' } });
    expect(error?.message).toBe('Value for field "email" has to be unique.');
  });

  it('names the first column of a composite unique key, unquoted', () => {
    const error = translateDatabaseError(pgError({ code: '23505', detail: 'Key ("role", collection)=(x, y) already exists.', table: 'tessera_permissions' }));
    expect(error?.extensions.field).toBe('role');
  });

  it('finds the database error nested as the cause of a wrapper error', () => {
    const wrapper = new Error('insert failed', { cause: uniqueEmail });
    const error = translateDatabaseError(new Error('outer', { cause: wrapper }));
    expect(error).toBeInstanceOf(RecordNotUniqueError);
    expect(error?.extensions.field).toBe('email');
  });

  it('maps 23502 to NOT_NULL_VIOLATION naming the column', () => {
    const error = translateDatabaseError(pgError({ code: '23502', column: 'title', table: 'articles', detail: 'Failing row contains (1, null).' }));
    expect(error).toMatchObject({ code: 'NOT_NULL_VIOLATION', status: 400, extensions: { field: 'title', collection: 'articles' } });
  });

  it('maps 23503 to INVALID_FOREIGN_KEY naming the field', () => {
    const error = translateDatabaseError(pgError({ code: '23503', detail: 'Key (role)=(42) is not present in table "tessera_roles".', table: 'tessera_users' }));
    expect(error).toMatchObject({ code: 'INVALID_FOREIGN_KEY', status: 400, extensions: { field: 'role' } });
  });

  it('maps 23514 to INVALID_PAYLOAD naming the violated rule', () => {
    const error = translateDatabaseError(pgError({ code: '23514', constraint: 'price_positive', table: 'products', detail: 'Failing row contains (1, -5).' }));
    expect(error).toBeInstanceOf(InvalidPayloadError);
    expect(error).toMatchObject({ code: 'INVALID_PAYLOAD', extensions: { reason: 'CONTAINS_INVALID_VALUE' } });
    expect(error?.message).toContain('price_positive');
  });

  it.each([
    ['22001', 'VALUE_TOO_LONG'],
    ['22003', 'VALUE_OUT_OF_RANGE'],
  ])('maps %s to %s naming the field', (code, expected) => {
    const error = translateDatabaseError(pgError({ code, column: 'amount', table: 'orders' }));
    expect(error).toMatchObject({ code: expected, status: 400, extensions: { field: 'amount' } });
  });

  it('maps 22P02 to INVALID_PAYLOAD with INVALID_VALUE', () => {
    const error = translateDatabaseError(pgError({ code: '22P02', column: 'amount', table: 'orders' }));
    expect(error).toBeInstanceOf(InvalidPayloadError);
    expect(error).toMatchObject({ code: 'INVALID_PAYLOAD', status: 400, extensions: { field: 'amount', reason: 'INVALID_VALUE' } });
  });

  it('speaks of "a field" when the error names no column', () => {
    expect(translateDatabaseError(pgError({ code: '22001' }))?.message).toBe('Value for a field is too long.');
    expect(translateDatabaseError(pgError({ code: '23505' }))?.message).toBe('Value for a field has to be unique.');
  });

  it('tells a delete blocked by a reference apart from a dangling foreign key', () => {
    const error = translateDatabaseError(pgError({ code: '23503', table: 'tessera_roles', detail: 'Key (id)=(42) is still referenced from table "tessera_shares".' }));
    expect(error).toBeInstanceOf(InvalidPayloadError);
    expect(error?.message).toBe('The item is still referenced by "tessera_shares" and cannot be removed.');
    expect(error?.extensions).toMatchObject({ reason: 'ITEM_STILL_REFERENCED' });
  });

  it('returns null for an error that is not from the database', () => {
    expect(translateDatabaseError(new Error('boom'))).toBeNull();
    expect(translateDatabaseError(Object.assign(new Error('no file'), { code: 'ENOENT' }))).toBeNull();
    expect(translateDatabaseError(undefined)).toBeNull();
  });

  it('names the field of a schema change from its context when PostgreSQL names no column', () => {
    const context = { collection: 'articles', field: 'title' };
    const notNull = translateDatabaseError(pgError({ code: '23502', table: 'articles' }), context);
    expect(notNull).toMatchObject({ code: 'NOT_NULL_VIOLATION', extensions: { field: 'title', collection: 'articles' } });
    const existingNulls = Object.assign(pgError({ code: '23502', column: 'title', table: 'articles' }), { message: 'column "title" of relation "articles" contains null values' });
    expect(translateDatabaseError(existingNulls)?.code).toBe('CONTAINS_NULL_VALUES');
    expect(translateDatabaseError(existingNulls)?.message).toBe('Existing items have no value for field "title", so it can\'t be made non-nullable.');
    const duplicates = translateDatabaseError(pgError({ code: '23505', detail: 'Key (title)=(a) is duplicated.', table: 'articles' }));
    expect(duplicates).toBeInstanceOf(RecordNotUniqueError);
    expect(duplicates?.message).toBe('Existing items share a value of field "title", so it can\'t be made unique.');
    const conversion = translateDatabaseError(pgError({ code: '42804' }), context);
    expect(conversion).toMatchObject({ code: 'INVALID_PAYLOAD', extensions: { field: 'title', reason: 'INVALID_TYPE_CONVERSION' } });
    expect(translateDatabaseError(pgError({ code: '42846' }), context)?.extensions.reason).toBe('INVALID_TYPE_CONVERSION');
  });

  it('turns a table or column created concurrently into 400 ALREADY_EXISTS', () => {
    const table = Object.assign(pgError({ code: '42P07' }), { message: 'relation "articles" already exists' });
    expect(translateDatabaseError(table)).toMatchObject({ code: 'INVALID_PAYLOAD', message: 'Collection "articles" already exists.', extensions: { field: 'collection', reason: 'ALREADY_EXISTS' } });
    const column = translateDatabaseError(pgError({ code: '42701' }), { collection: 'articles', field: 'title' });
    expect(column).toMatchObject({ message: 'Field "title" already exists.', extensions: { field: 'title', reason: 'ALREADY_EXISTS' } });
  });

  it('returns null for an SQLSTATE it does not know', () => {
    expect(translateDatabaseError(pgError({ code: '40001' }))).toBeNull();
  });
});

describe('withDatabaseErrors', () => {
  it('rethrows a constraint failure as the client error', async () => {
    await expect(withDatabaseErrors(() => Promise.reject(uniqueEmail))).rejects.toBeInstanceOf(RecordNotUniqueError);
  });

  it('rethrows other errors unchanged and passes results through', async () => {
    const boom = new Error('boom');
    await expect(withDatabaseErrors(() => Promise.reject(boom))).rejects.toBe(boom);
    await expect(withDatabaseErrors(async () => 42)).resolves.toBe(42);
  });
});
