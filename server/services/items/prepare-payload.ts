import { randomUUID } from 'node:crypto';
import { ValidationError } from 'yup';
import type { Accountability } from '../../auth/accountability.ts';
import { hashPassword, type HashCost } from '../../auth/passwords.ts';
import { normalizeUserEmail } from '../../auth/user-email.ts';
import { InvalidPayloadError, NotNullViolationError, type TesseraError, ValueOutOfRangeError, ValueTooLongError } from '../../errors.ts';
import { fieldTypeTraits, type ValueKind } from '../../schema/field-type-table.ts';
import type { CollectionOverview, FieldOverview } from '../../schema/overview.ts';
import { fieldValueSchema } from './field-value-schema.ts';
import { applyUserCredentialRules } from './user-credentials.ts';

/** Create fills defaults and requires required fields; update touches only what is sent. */
export type WriteMode = 'create' | 'update';

/** The value a concealed field is returned as; sending it back means "unchanged". */
export const CONCEALED_PLACEHOLDER = '**********';

const ARGON2_HASH = /^\$argon2(id|i|d)\$/;

function invalid(field: string, message: string, ErrorClass: new (message: string, extensions: { field: string }) => TesseraError = InvalidPayloadError): never {
  throw new ErrorClass(message, { field });
}

/**
 * The error class for a failed value check: length and range failures have codes of their own. Only text
 * kinds (string, hash) check a maximum length and only integer a range, so the failed check names the class.
 */
function errorClassFor(error: ValidationError): new (message: string, extensions: { field: string }) => TesseraError {
  if (error.type === 'max' && typeof error.value === 'string') return ValueTooLongError;
  if (error.type === 'min' || error.type === 'max') return ValueOutOfRangeError;
  return InvalidPayloadError;
}

function isRequired(field: FieldOverview): boolean {
  if (field.alias || field.generated) return false;
  if (field.meta?.required) return true;
  return !field.nullable && field.defaultValue === null && !field.primaryKey && !hasAutoSpecial(field);
}

function hasAutoSpecial(field: FieldOverview): boolean {
  return field.special.some((special) => ['uuid', 'date-created', 'date-updated', 'user-created', 'user-updated', 'role-created'].includes(special));
}

/** A number sent to a string or text field is its text, as in Directus (`{"total": 40}` stores "40"). */
function numberAsText(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

const asIs = (value: unknown): unknown => value;
// Serialise ourselves: node-postgres would turn a JS array into a PostgreSQL array literal.
const asJsonText = (value: unknown): unknown => JSON.stringify(value);

/** How a sent value of each value kind (server/schema/field-type-table.ts) is checked: string and text take numbers as their text. */
const AS_SENT = {
  string: numberAsText,
  text: numberAsText,
  hash: asIs,
  integer: asIs,
  bigInteger: asIs,
  float: asIs,
  decimal: asIs,
  boolean: asIs,
  date: asIs,
  time: asIs,
  dateTime: asIs,
  uuid: asIs,
  csv: asIs,
  json: asIs,
  geometry: asIs,
  alias: asIs,
} satisfies Record<ValueKind, (value: unknown) => unknown>;

/** How a checked value of each value kind is stored: JSON as its text, a csv list joined. */
const AS_COLUMN = {
  ...AS_SENT,
  csv: (value) => (Array.isArray(value) ? value.join(',') : value),
  json: asJsonText,
  geometry: asJsonText,
} satisfies Record<ValueKind, (value: unknown) => unknown>;

/** A sent value as its field's check sees it. */
function asText(field: FieldOverview, value: unknown): unknown {
  return AS_SENT[fieldTypeTraits(field.type).value](value);
}

/**
 * Checks every scalar value of `payload` against its field (existence, type, length, range, required,
 * not null). Relational values (objects and arrays on relational fields) are left to nested writes.
 */
export function validateScalars(collection: CollectionOverview, payload: Record<string, unknown>, mode: WriteMode, relational: ReadonlySet<string>): void {
  for (const [name, value] of Object.entries(payload)) {
    const field = collection.fields[name];
    if (!field) invalid(name, `Field "${name}" doesn't exist in collection "${collection.collection}".`);
    if (relational.has(name) && value !== null && typeof value === 'object') continue;
    if (field.alias && !relational.has(name)) invalid(name, `Field "${name}" has no data to write.`);
    if (mode === 'update' && field.primaryKey) invalid(name, `The primary key "${name}" can't be changed.`);
    if (value === null && (!field.nullable || field.meta?.required) && !field.primaryKey) invalid(name, `Value for field "${name}" can't be null.`, NotNullViolationError);
    if (field.concealed && value === CONCEALED_PLACEHOLDER) continue;
    try {
      fieldValueSchema(field).validateSync(asText(field, value));
    } catch (error) {
      if (error instanceof ValidationError) invalid(name, error.message, errorClassFor(error));
      throw error;
    }
  }
  if (mode === 'create') {
    for (const field of Object.values(collection.fields)) {
      if (isRequired(field) && (payload[field.field] === undefined || payload[field.field] === null)) invalid(field.field, `Value for field "${field.field}" is required.`);
    }
  }
}

/** Turns API values into column values: casts, hashes, and the automatic specials (uuid, dates, users, roles). */
export async function toColumns(collection: CollectionOverview, payload: Record<string, unknown>, mode: WriteMode, accountability: Accountability, hashCost: HashCost): Promise<Record<string, unknown>> {
  const columns: Record<string, unknown> = {};
  const now = new Date();
  if (collection.collection === 'tessera_users') payload = normalizeUserEmail(await applyUserCredentialRules(payload, CONCEALED_PLACEHOLDER));
  for (const field of Object.values(collection.fields)) {
    if (field.alias) continue;
    const sent = Object.hasOwn(payload, field.field);
    let value = payload[field.field];
    if (field.concealed && value === CONCEALED_PLACEHOLDER) continue;
    const special = new Set(field.special);
    if (mode === 'create' && !sent) {
      if (special.has('uuid')) value = randomUUID();
      // A nullable date-updated stays null until the first update, as in Directus.
      else if (special.has('date-created') || (special.has('date-updated') && !field.nullable)) value = now;
      else if (special.has('user-created')) value = accountability.user;
      else if (special.has('role-created')) value = accountability.role;
      else continue;
    } else if (mode === 'update' && !sent) {
      if (special.has('date-updated')) value = now;
      else if (special.has('user-updated')) value = accountability.user;
      else continue;
    }
    columns[field.field] = await castForColumn(field, value, accountability.admin, hashCost);
  }
  return columns;
}

/**
 * A value as its column stores it. A `hash` field stores an argon2id hash of the value; a value that is
 * already an argon2 hash is kept as is only for administrators (importing users), since anyone else could
 * otherwise choose a password the policy refuses by sending its hash.
 */
async function castForColumn(field: FieldOverview, value: unknown, trusted: boolean, hashCost: HashCost): Promise<unknown> {
  if (value === null || value === undefined) return null;
  if (field.special.includes('hash') && typeof value === 'string' && !(trusted && ARGON2_HASH.test(value))) return hashPassword(value, hashCost);
  return AS_COLUMN[fieldTypeTraits(field.type).value](value);
}
