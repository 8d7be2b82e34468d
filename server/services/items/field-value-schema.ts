import { geometryProblem } from '../../schema/geojson.ts';
import { geojsonTypesOf, type GeometryType } from '../../schema/geometry-types.ts';
import * as yup from 'yup';
import { fieldTypeTraits, type ValueKind } from '../../schema/field-type-table.ts';
import type { FieldOverview } from '../../schema/overview.ts';

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER_TEXT = /^-?\d{1,19}$/;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** PostgreSQL text and jsonb cannot hold NUL characters: such a value is the client's error, not a 500. */
function withoutNul(value: unknown): boolean {
  if (typeof value === 'string') return !value.includes('\u0000');
  if (Array.isArray(value)) return value.every(withoutNul);
  if (typeof value === 'object' && value !== null) return Object.entries(value).every(([key, inner]) => !key.includes('\u0000') && withoutNul(inner));
  return true;
}

/** Null is checked by nullability (validateScalars), not by a value test: yup runs custom tests on null too. */
function isAbsent(value: unknown): boolean {
  return value === null || value === undefined;
}

/** How deeply a JSON value may nest: checks of deeper ones (here, in PostgreSQL's jsonb) would exhaust the stack. */
const MAX_JSON_DEPTH = 256;

function shallowEnough(value: unknown, levels = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return levels > 0 && Object.values(value).every((inner) => shallowEnough(inner, levels - 1));
}

function isValidDate(value: string): boolean {
  return !Number.isNaN(Date.parse(value));
}

const text = (name: string) => yup.string().strict().typeError(`${name} must be a string`).test('nul', `${name} cannot contain NUL characters`, withoutNul);

function dateTime(name: string): yup.Schema {
  return yup
    .string()
    .strict()
    .typeError(`${name} must be a date and time (ISO 8601)`)
    .test('datetime', `${name} must be a date and time (ISO 8601)`, (value) => value === undefined || value === null || (/^\d{4}-\d{2}-\d{2}/.test(value) && isValidDate(value)));
}

function limitedText(field: FieldOverview, name: string): yup.Schema {
  return field.maxLength ? text(name).max(field.maxLength, `${name} must be at most ${field.maxLength} characters`) : text(name);
}

/** The check of each value kind (server/schema/field-type-table.ts), without null. */
const SCHEMAS = {
  string: limitedText,
  hash: limitedText,
  text: (_field, name) => text(name),
  integer: (_field, name) =>
    yup.number().strict().typeError(`${name} must be an integer`).integer(`${name} must be an integer`).min(INT4.min, `${name} is out of range`).max(INT4.max, `${name} is out of range`),
  bigInteger: (_field, name) =>
    yup.mixed().test('bigint', `${name} must be an integer`, (value) => isAbsent(value) || (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && INTEGER_TEXT.test(value))),
  float: (_field, name) => yup.number().strict().typeError(`${name} must be a number`),
  decimal: (_field, name) =>
    yup.mixed().test('decimal', `${name} must be a number`, (value) => isAbsent(value) || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL_TEXT.test(value))),
  boolean: (_field, name) => yup.boolean().strict().typeError(`${name} must be true or false`),
  date: (_field, name) =>
    yup
      .string()
      .strict()
      .typeError(`${name} must be a date (YYYY-MM-DD)`)
      .matches(DATE, `${name} must be a date (YYYY-MM-DD)`)
      .test('date', `${name} must be a valid date`, (value) => value === undefined || value === null || isValidDate(value)),
  time: (_field, name) => yup.string().strict().typeError(`${name} must be a time (HH:MM:SS)`).matches(TIME, `${name} must be a time (HH:MM:SS)`),
  dateTime: (_field, name) => dateTime(name),
  uuid: (_field, name) => yup.string().strict().typeError(`${name} must be a UUID`).matches(UUID, `${name} must be a UUID`),
  csv: (_field, name) =>
    yup
      .mixed()
      .test('csv', `${name} must be a list of strings`, (value) => isAbsent(value) || typeof value === 'string' || (Array.isArray(value) && value.every((part) => typeof part === 'string' || typeof part === 'number')))
      .test('nul', `${name} cannot contain NUL characters`, withoutNul),
  json: (_field, name) =>
    yup
      .mixed()
      .test('depth', `${name} nests deeper than ${MAX_JSON_DEPTH} levels`, (value) => shallowEnough(value))
      .test('nul', `${name} cannot contain NUL characters`, (value) => withoutNul(value)),
  alias: () => yup.mixed(),
  geometry: (field, name) =>
    yup.mixed().test('geojson', `${name} is not valid GeoJSON`, function check(value) {
      const problem = isAbsent(value) ? null : geometryProblem(value, geojsonTypesOf(field.type as GeometryType), { twoDimensional: field.dbType === 'geometry', wgs84Only: field.dbType === 'geometry' });
      return problem ? this.createError({ message: `${name} ${problem}` }) : true;
    }),
} satisfies Record<ValueKind, (field: FieldOverview, name: string) => yup.Schema>;

/** Built once per field of a schema overview, and again if what the check depends on changed. */
const built = new WeakMap<FieldOverview, { signature: string; schema: yup.Schema }>();

/** The yup schema one value of `field` must satisfy (type, length, range); relational values are checked elsewhere. */
export function fieldValueSchema(field: FieldOverview): yup.Schema {
  const signature = `${field.field}\u0000${field.type}\u0000${field.dbType}\u0000${field.maxLength ?? ''}`;
  let entry = built.get(field);
  if (entry?.signature !== signature) {
    entry = { signature, schema: SCHEMAS[fieldTypeTraits(field.type).value](field, field.field).nullable() };
    built.set(field, entry);
  }
  return entry.schema;
}
