import {
  ContainsNullValuesError,
  InvalidForeignKeyError,
  InvalidPayloadError,
  NotNullViolationError,
  RecordNotUniqueError,
  type TesseraError,
  ValueOutOfRangeError,
  ValueTooLongError,
} from '../errors.ts';
import { getSystemCollection } from '../schema/system/index.ts';

/** The fields of a PostgreSQL error that say what went wrong (node-postgres `DatabaseError`). */
interface PostgresError {
  code: string;
  message?: string;
  detail?: string;
  column?: string;
  constraint?: string;
  table?: string;
}

function findPostgresError(error: unknown): PostgresError | null {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current as PostgresError;
  }
  return null;
}

/** `Key (email)=(a@b.c) already exists.` → `email` */
function fieldFromDetail(detail: string | undefined): string | undefined {
  return detail?.match(/^Key \(([^)]+)\)/)?.[1]?.split(',')[0]?.trim().replace(/^"|"$/g, '');
}

/** What a statement was working on, for errors the database reports without naming a column (DDL). */
export interface DatabaseErrorContext {
  collection?: string;
  field?: string;
}

/**
 * Turns a database constraint failure into the client error it really is, naming the field; returns
 * null for anything that is not the client's fault (those stay 500s). Schema changes pass `context`,
 * since PostgreSQL names no column when, say, existing rows block a new NOT NULL or UNIQUE.
 */
export function translateDatabaseError(error: unknown, context: DatabaseErrorContext = {}): TesseraError | null {
  const pg = findPostgresError(error);
  if (!pg) return null;
  const field = pg.column ?? fieldFromDetail(pg.detail) ?? context.field;
  const extensions = { field, collection: pg.table ?? context.collection };
  const fieldName = field ? `field "${field}"` : 'a field';
  switch (pg.code) {
    case '23505':
      if (pg.detail?.endsWith('is duplicated.')) {
        return new RecordNotUniqueError(`Existing items share a value of ${fieldName}, so it can't be made unique.`, extensions);
      }
      return new RecordNotUniqueError(`Value for ${fieldName} has to be unique.`, extensions);
    case '23502':
      if (pg.message?.includes('contains null values')) {
        return new ContainsNullValuesError(`Existing items have no value for ${fieldName}, so it can't be made non-nullable.`, extensions);
      }
      return new NotNullViolationError(`Value for ${fieldName} can't be null.`, extensions);
    case '23503':
      if (pg.detail?.includes('is still referenced')) {
        const referrer = pg.detail.match(/from table "([^"]+)"/)?.[1];
        return new InvalidPayloadError(`The item is still referenced${referrer ? ` by "${referrer}"` : ''} and cannot be removed.`, { collection: pg.table, reason: 'ITEM_STILL_REFERENCED' });
      }
      return new InvalidForeignKeyError(`Invalid foreign key for ${fieldName}: the related item does not exist.`, extensions);
    case '23514':
      return checkViolation(pg, extensions);
    case '22001':
      return new ValueTooLongError(`Value for ${fieldName} is too long.`, extensions);
    case '22003':
      return new ValueOutOfRangeError(`Value for ${fieldName} is out of range.`, extensions);
    case '22P02':
    case '22007':
    case '22008':
      return new InvalidPayloadError('A value has the wrong format for its field.', { ...extensions, reason: 'INVALID_VALUE' });
    case '22021':
    case '22P05':
      return unstorableText(extensions);
    case '42P07': {
      const name = context.collection ?? pg.message?.match(/"([^"]+)"/)?.[1];
      return new InvalidPayloadError(`${name ? `Collection "${name}"` : 'The collection'} already exists.`, { collection: name, field: 'collection', reason: 'ALREADY_EXISTS' });
    }
    case '42701':
      return new InvalidPayloadError(`Field ${field ? `"${field}" ` : ''}already exists.`, { ...extensions, reason: 'ALREADY_EXISTS' });
    case '42804':
    case '42846':
      return new InvalidPayloadError(`The values of ${fieldName} can't be converted to the requested type.`, { ...extensions, reason: 'INVALID_TYPE_CONVERSION' });
    default:
      return null;
  }
}

function unstorableText(extensions: { field?: string; collection?: string }): TesseraError {
  return new InvalidPayloadError(`${extensions.field ? `"${extensions.field}"` : 'A text value'} cannot hold NUL characters (\\u0000): PostgreSQL text and JSON cannot store them.`, { ...extensions, reason: 'INVALID_VALUE' });
}

/**
 * Text PostgreSQL cannot store (a NUL character: 22021 in text, 22P05 in jsonb) came from the client
 * whichever path wrote it (a comment, a flow's trigger body kept in its run log…): the error handler's last
 * resort before a 500, for paths that do not translate their database errors themselves.
 */
export function translateUnstorableText(error: unknown): TesseraError | null {
  const pg = findPostgresError(error);
  if (pg?.code !== '22021' && pg?.code !== '22P05') return null;
  return unstorableText({ field: pg.column ?? undefined, collection: pg.table ?? undefined });
}

/** Runs `work`, rethrowing database constraint failures as client errors. */
export async function withDatabaseErrors<T>(work: () => Promise<T>, context?: DatabaseErrorContext): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateDatabaseError(error, context) ?? error;
  }
}

/**
 * A CHECK constraint failed. Tessera names them `<table>_<column>_check`, so the column is known; for
 * system collections the allowed values come from the field's metadata choices.
 */
function checkViolation(pg: PostgresError, extensions: { field?: string; collection?: string }): TesseraError {
  const table = pg.table ?? extensions.collection;
  const column = table && pg.constraint?.startsWith(`${table}_`) && pg.constraint.endsWith('_check') ? pg.constraint.slice(table.length + 1, -'_check'.length) : undefined;
  const field = extensions.field ?? column;
  const choices = table && field ? (getSystemCollection(table)?.fields.find((f) => f.field === field)?.meta.options?.choices as Array<{ value: unknown }> | undefined) : undefined;
  const allowed = choices?.map((choice) => (choice.value === null ? 'null' : String(choice.value)));
  const message = field
    ? `Value for field "${field}" is not allowed${allowed ? `; use one of: ${allowed.join(', ')}` : ''}.`
    : `Value violates the rule "${pg.constraint}".`;
  return new InvalidPayloadError(message, { ...extensions, field, reason: 'CONTAINS_INVALID_VALUE', ...(allowed ? { allowed } : {}) });
}
