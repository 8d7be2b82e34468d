import { geometryProblem } from '../../schema/geojson.ts';
import { geojsonTypesOf, type GeometryType } from '../../schema/geometry-types.ts';
import * as yup from 'yup';
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

/** The yup schema one value of `field` must satisfy (type, length, range); relational values are checked elsewhere. */
export function fieldValueSchema(field: FieldOverview): yup.Schema {
  const name = field.field;
  const base = (): yup.Schema => {
    switch (field.type) {
      case 'string':
      case 'hash': {
        const schema = yup.string().strict().typeError(`${name} must be a string`).test('nul', `${name} cannot contain NUL characters`, withoutNul);
        return field.maxLength ? schema.max(field.maxLength, `${name} must be at most ${field.maxLength} characters`) : schema;
      }
      case 'text':
        return yup.string().strict().typeError(`${name} must be a string`).test('nul', `${name} cannot contain NUL characters`, withoutNul);
      case 'integer':
        return yup.number().strict().typeError(`${name} must be an integer`).integer(`${name} must be an integer`).min(INT4.min, `${name} is out of range`).max(INT4.max, `${name} is out of range`);
      case 'bigInteger':
        return yup.mixed().test('bigint', `${name} must be an integer`, (value) => isAbsent(value) || (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && INTEGER_TEXT.test(value)));
      case 'float':
        return yup.number().strict().typeError(`${name} must be a number`);
      case 'decimal':
        return yup.mixed().test('decimal', `${name} must be a number`, (value) => isAbsent(value) || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL_TEXT.test(value)));
      case 'boolean':
        return yup.boolean().strict().typeError(`${name} must be true or false`);
      case 'date':
        return yup.string().strict().typeError(`${name} must be a date (YYYY-MM-DD)`).matches(DATE, `${name} must be a date (YYYY-MM-DD)`).test('date', `${name} must be a valid date`, (value) => value === undefined || value === null || isValidDate(value));
      case 'time':
        return yup.string().strict().typeError(`${name} must be a time (HH:MM:SS)`).matches(TIME, `${name} must be a time (HH:MM:SS)`);
      case 'dateTime':
      case 'timestamp':
        return yup.string().strict().typeError(`${name} must be a date and time (ISO 8601)`).test('datetime', `${name} must be a date and time (ISO 8601)`, (value) => value === undefined || value === null || (/^\d{4}-\d{2}-\d{2}/.test(value) && isValidDate(value)));
      case 'uuid':
        return yup.string().strict().typeError(`${name} must be a UUID`).matches(UUID, `${name} must be a UUID`);
      case 'csv':
        return yup.mixed().test('csv', `${name} must be a list of strings`, (value) => isAbsent(value) || typeof value === 'string' || (Array.isArray(value) && value.every((part) => typeof part === 'string' || typeof part === 'number'))).test('nul', `${name} cannot contain NUL characters`, withoutNul);
      case 'json':
        return yup.mixed().test('depth', `${name} nests deeper than ${MAX_JSON_DEPTH} levels`, (value) => shallowEnough(value)).test('nul', `${name} cannot contain NUL characters`, (value) => withoutNul(value));
      case 'alias':
        return yup.mixed();
      case 'geometry':
      case 'geometry.Point':
      case 'geometry.LineString':
      case 'geometry.Polygon':
      case 'geometry.MultiPoint':
      case 'geometry.MultiLineString':
      case 'geometry.MultiPolygon':
        return yup.mixed().test('geojson', `${name} is not valid GeoJSON`, function check(value) {
          const problem = isAbsent(value) ? null : geometryProblem(value, geojsonTypesOf(field.type as GeometryType), { twoDimensional: field.dbType === 'geometry', wgs84Only: field.dbType === 'geometry' });
          return problem ? this.createError({ message: `${name} ${problem}` }) : true;
        });
    }
  };
  return base().nullable();
}
