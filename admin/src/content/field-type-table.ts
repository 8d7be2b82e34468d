/**
 * The admin's one table of field types: the same type names as the server's (server/schema/field-type-table.ts,
 * which the admin cannot import), each with its value kind, column size, type-picker group and the interfaces
 * it can be edited with. Every place that treats types differently keeps a `Record<ValueKind, …>` (filter
 * operators, default interface, table cell, archive and default values), so a new type is one row here.
 * tests/unit/admin/field-type-table.test.ts holds both tables to the same names, value kinds and sizes.
 */

/** What a field's values are: the server's value kinds, under the same names. */
export type ValueKind =
  | 'string'
  | 'text'
  | 'hash'
  | 'integer'
  | 'bigInteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'dateTime'
  | 'uuid'
  | 'csv'
  | 'json'
  | 'geometry'
  | 'alias';

/** Groups of the data model's type picker, in display order of their first type. */
export type TypeGroup = 'text' | 'number' | 'choice' | 'time' | 'structured' | 'geometry';

/** What the admin needs to know about one field type. */
export interface FieldTypeTraits {
  /** What its values are. */
  value: ValueKind;
  /** The size its column takes: a length (string) or precision and scale (decimal). */
  size: 'length' | 'precision' | null;
  /** Its group in the type picker; null for a type no new field is given (alias fields come from relations). */
  group: TypeGroup | null;
  /** The interfaces the data model offers for it; the first is the server's default for the type. */
  interfaces: readonly string[];
}

const GEOMETRY_INTERFACES = ['map', 'input-json'] as const;
const geometry = { value: 'geometry', size: null, group: 'geometry', interfaces: GEOMETRY_INTERFACES } as const;

/** Every field type, in the type picker's order. */
export const FIELD_TYPE_TABLE = {
  string: { value: 'string', size: 'length', group: 'text', interfaces: ['input', 'select-dropdown', 'input-multiline', 'select-radio', 'select-color', 'select-icon', 'input-autocomplete-api'] },
  text: { value: 'text', size: null, group: 'text', interfaces: ['input-multiline', 'input-rich-text-md', 'input-rich-text-html', 'input', 'input-code', 'input-autocomplete-api'] },
  uuid: { value: 'uuid', size: null, group: 'text', interfaces: ['input'] },
  hash: { value: 'hash', size: null, group: 'text', interfaces: ['input-hash'] },
  integer: { value: 'integer', size: null, group: 'number', interfaces: ['input', 'select-dropdown', 'slider', 'select-radio'] },
  bigInteger: { value: 'bigInteger', size: null, group: 'number', interfaces: ['input', 'select-dropdown'] },
  float: { value: 'float', size: null, group: 'number', interfaces: ['input', 'slider'] },
  decimal: { value: 'decimal', size: 'precision', group: 'number', interfaces: ['input'] },
  boolean: { value: 'boolean', size: null, group: 'choice', interfaces: ['boolean'] },
  csv: { value: 'csv', size: null, group: 'choice', interfaces: ['tags', 'select-dropdown', 'select-multiple-dropdown', 'select-multiple-checkbox'] },
  date: { value: 'date', size: null, group: 'time', interfaces: ['datetime'] },
  time: { value: 'time', size: null, group: 'time', interfaces: ['datetime'] },
  dateTime: { value: 'dateTime', size: null, group: 'time', interfaces: ['datetime'] },
  timestamp: { value: 'dateTime', size: null, group: 'time', interfaces: ['datetime'] },
  json: {
    value: 'json',
    size: null,
    group: 'structured',
    interfaces: ['input-code', 'input-block-editor', 'list', 'tags', 'select-dropdown', 'select-multiple-dropdown', 'select-multiple-checkbox', 'select-multiple-checkbox-tree', 'key-value'],
  },
  'geometry.Point': geometry,
  'geometry.LineString': geometry,
  'geometry.Polygon': geometry,
  'geometry.MultiPoint': geometry,
  'geometry.MultiLineString': geometry,
  'geometry.MultiPolygon': geometry,
  geometry,
  alias: { value: 'alias', size: null, group: null, interfaces: [] },
} as const satisfies Record<string, FieldTypeTraits>;

/** A field type name. */
export type FieldTypeName = keyof typeof FIELD_TYPE_TABLE;

/** A type a new field can be given (the picker's): every type with a group. */
export type PickerType = { [Type in FieldTypeName]: (typeof FIELD_TYPE_TABLE)[Type]['group'] extends null ? never : Type }[FieldTypeName];

/** True for a type name of the table. */
export function isFieldTypeName(type: string): type is FieldTypeName {
  return Object.hasOwn(FIELD_TYPE_TABLE, type);
}

/** The traits of a type; a type the admin does not know reads as alias (no value of its own to edit, filter or format). */
export function fieldTypeTraits(type: string): FieldTypeTraits {
  return isFieldTypeName(type) ? FIELD_TYPE_TABLE[type] : FIELD_TYPE_TABLE.alias;
}

/** The value kind of a type (see fieldTypeTraits for unknown types). */
export function valueKindOf(type: string): ValueKind {
  return fieldTypeTraits(type).value;
}
