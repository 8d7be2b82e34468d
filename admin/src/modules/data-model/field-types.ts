/**
 * The field type picker: storage types, the interfaces each can be edited with (the names the item
 * editor understands), and the POST/PATCH /fields payload a field form produces. Pure logic.
 */

import { interfaces } from '../../extensions/kinds.ts';
import { FIELD_TYPE_TABLE, valueKindOf, type FieldTypeName, type PickerType, type TypeGroup, type ValueKind } from '../../content/field-type-table.ts';
import { DISPLAY_OPTIONS, withOptionDefaults, withoutDefaults } from '../../content/interfaces/interface-options.ts';
import { orderFields, type Sortable } from '../../content/schema/field-order.ts';
import { parseFilter, toJsonText } from '../shared/json-rules.ts';

/** Storage types a new field can have (docs/api.md "Fields"), in the picker's order; alias fields come from relations. */
export const FIELD_TYPES: readonly PickerType[] = (Object.keys(FIELD_TYPE_TABLE) as FieldTypeName[]).filter((type): type is PickerType => FIELD_TYPE_TABLE[type].group !== null);
/** A storage type offered by the picker. */
export type FieldType = PickerType;

/** Groups of the type picker, in display order. */
export const TYPE_GROUPS: ReadonlyArray<{ group: TypeGroup; types: readonly FieldType[] }> = [...new Set(FIELD_TYPES.map((type) => FIELD_TYPE_TABLE[type].group))].map((group) => ({
  group,
  types: FIELD_TYPES.filter((type) => FIELD_TYPE_TABLE[type].group === group),
}));

/** Interfaces per type; the first is the default (the server's default for that type). */
export const INTERFACES_BY_TYPE: Readonly<Record<FieldType, readonly string[]>> = byPickerType((type) => FIELD_TYPE_TABLE[type].interfaces);

function byPickerType<T>(pick: (type: FieldType) => T): Record<FieldType, T> {
  const result = {} as Record<FieldType, T>;
  for (const type of FIELD_TYPES) result[type] = pick(type);
  return result;
}

/** Interfaces that take `options.choices` (a list of `{ text, value }`). */
export const CHOICE_INTERFACES: readonly string[] = ['select-dropdown', 'select-multiple-dropdown', 'select-radio', 'select-multiple-checkbox'];

/** The interfaces offered for a type: the built-in ones, then those of admin extensions that fit it. */
export function interfacesFor(type: FieldType): readonly string[] {
  const builtIn = INTERFACES_BY_TYPE[type];
  const extended = interfaces
    .list()
    .filter((entry) => !entry.builtIn && !builtIn.includes(entry.id) && (!entry.types || entry.types.length === 0 || entry.types.includes(type)))
    .map((entry) => entry.id);
  return [...builtIn, ...extended];
}

/** An interface's label: the built-in ones' from the messages, an extension's own name. */
export function interfaceLabel(name: string, translate: (key: string) => string): string {
  return Object.values(INTERFACES_BY_TYPE).some((names) => names.includes(name)) ? translate(`dataModel.interfaces.${name}`) : (interfaces.get(name)?.name ?? name);
}

/** The default interface of a type. */
export function defaultInterface(type: FieldType): string {
  return INTERFACES_BY_TYPE[type][0]!;
}

/** Keeps the chosen interface when the new type offers it, else the type's default. */
export function interfaceAfterTypeChange(type: FieldType, current: string | null | undefined): string {
  return current && INTERFACES_BY_TYPE[type].includes(current) ? current : defaultInterface(type);
}

/** Types whose column has a length (`max_length`). */
export const LENGTH_TYPES: readonly FieldType[] = FIELD_TYPES.filter((type) => FIELD_TYPE_TABLE[type].size === 'length');
/** Types whose column has precision and scale. */
export const PRECISION_TYPES: readonly FieldType[] = FIELD_TYPES.filter((type) => FIELD_TYPE_TABLE[type].size === 'precision');

/** New field names: 1 to 63 letters, digits or underscores, not starting with a digit (docs/api.md "Names"). */
export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** New collection names: as field names, and not tessera_ or pg_ (reserved). */
export const COLLECTION_NAME_PATTERN = /^(?!tessera_|pg_)[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** One choice of a dropdown, as the form edits it. */
export interface ChoiceInput {
  text: string;
  value: string;
}

/** What the field form holds. */
export interface FieldFormValues {
  field: string;
  type: FieldType;
  interface: string;
  required?: boolean;
  readonly?: boolean;
  hidden?: boolean;
  unique?: boolean;
  nullable?: boolean;
  width?: 'half' | 'full';
  note?: string | null;
  default_value?: string | null;
  max_length?: number | null;
  numeric_precision?: number | null;
  numeric_scale?: number | null;
  choices?: ChoiceInput[];
  /** The interface's other options (`meta.options` without `choices`), by Directus's names. */
  options?: Record<string, unknown> | null;
  /** How lists show the value (`meta.display`), and its options. */
  display?: string | null;
  display_options?: Record<string, unknown> | null;
  translations?: Array<{ language: string; translation: string }>;
  /** The group field holding this field (meta.group), or null at the top of the form. */
  group?: string | null;
  /** meta.validation as JSON text (blank: no rule). */
  validation?: string;
  validation_message?: string | null;
}

/** The field's validation rule from its JSON text; the form item has already refused text that is not a filter. */
function validationRule(text: string | undefined): Record<string, unknown> | null {
  const parsed = parseFilter(text);
  return parsed.ok ? parsed.value : null;
}

/** A POST /fields/:collection (or PATCH, without `field`) body. */
export interface FieldPayload {
  field?: string;
  type: FieldType;
  meta: Record<string, unknown>;
  schema: Record<string, unknown>;
}

const asText = (text: string): unknown => text;
const asNumber = (text: string): unknown => (Number.isFinite(Number(text)) ? Number(text) : text);

/** A default typed into the form as a value of each value kind (bigInteger and decimal stay text: no digit is lost). */
const DEFAULT_VALUES = {
  integer: asNumber,
  float: asNumber,
  boolean: (text) => (text === 'true' ? true : text === 'false' ? false : text),
  bigInteger: asText,
  decimal: asText,
  string: asText,
  text: asText,
  hash: asText,
  date: asText,
  time: asText,
  dateTime: asText,
  uuid: asText,
  csv: asText,
  json: asText,
  geometry: asText,
  alias: asText,
} satisfies Record<ValueKind, (text: string) => unknown>;

/** A typed default from the text the form holds; blank is no default. */
export function defaultValueFor(type: FieldType, text: string | null | undefined): unknown {
  if (text === null || text === undefined || text.trim() === '') return null;
  return DEFAULT_VALUES[valueKindOf(type)](text.trim());
}

/** An options object without blanks, or null when nothing is left. */
function compact(options: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  const kept = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== ''));
  return Object.keys(kept).length > 0 ? kept : null;
}

/** The options an interface stores: its options form's values (blanks and defaults left out), and choices for dropdowns. */
export function optionsFor(values: FieldFormValues): Record<string, unknown> | null {
  const options: Record<string, unknown> = withoutDefaults(values.interface, compact(values.options) ?? {});
  if (CHOICE_INTERFACES.includes(values.interface)) {
    delete options.choices;
    const choices = (values.choices ?? []).filter((choice) => choice.value !== '').map((choice) => ({ text: choice.text || choice.value, value: choice.value }));
    if (choices.length > 0) options.choices = choices;
  }
  return Object.keys(options).length > 0 ? options : null;
}

/**
 * The specials a field of the chosen type needs from the admin: a list field (csv, the tags interface)
 * is split into a list only with `cast-csv`, which the API no longer adds itself (issue 31). Undefined
 * leaves the stored specials as they are.
 */
function specialsFor(type: FieldType, previous: FieldRecord | undefined): string[] | undefined {
  if (type !== 'csv' || previous?.type === 'csv') return undefined;
  return [...new Set([...(previous?.meta?.special ?? []), 'cast-csv'])];
}

/** The field form's values as the API body; `previous` (the stored field) makes it a PATCH body without the name. */
export function toFieldPayload(values: FieldFormValues, previous?: FieldRecord): FieldPayload {
  const existing = previous !== undefined;
  const schema: Record<string, unknown> = {
    default_value: defaultValueFor(values.type, values.default_value),
    is_nullable: values.nullable ?? true,
    is_unique: values.unique ?? false,
  };
  if (LENGTH_TYPES.includes(values.type) && values.max_length) schema.max_length = values.max_length;
  if (PRECISION_TYPES.includes(values.type)) {
    if (values.numeric_precision) schema.numeric_precision = values.numeric_precision;
    if (values.numeric_scale !== null && values.numeric_scale !== undefined) schema.numeric_scale = values.numeric_scale;
  }
  const translations = (values.translations ?? []).filter((entry) => entry.language && entry.translation);
  const meta: Record<string, unknown> = {
    interface: values.interface,
    options: optionsFor(values),
    required: values.required ?? false,
    readonly: values.readonly ?? false,
    hidden: values.hidden ?? false,
    width: values.width ?? 'full',
    note: values.note?.trim() ? values.note.trim() : null,
    translations: translations.length > 0 ? translations : null,
    group: values.group || null,
    validation: validationRule(values.validation),
    validation_message: values.validation_message?.trim() ? values.validation_message.trim() : null,
  };
  // Left out when the form does not hold it, so a PATCH keeps what is stored.
  if (values.display !== undefined) {
    meta.display = values.display || null;
    meta.display_options = values.display ? compact(withoutDefaults(values.display, values.display_options ?? {}, DISPLAY_OPTIONS)) : null;
  }
  const special = specialsFor(values.type, previous);
  if (special) meta.special = special;
  return existing ? { type: values.type, meta, schema } : { field: values.field, type: values.type, meta, schema };
}

/** A field as /fields reads it (the parts the form uses). */
export interface FieldRecord {
  collection: string;
  field: string;
  type: string;
  meta: {
    interface?: string | null;
    options?: Record<string, unknown> | null;
    display?: string | null;
    display_options?: Record<string, unknown> | null;
    required?: boolean;
    readonly?: boolean;
    hidden?: boolean;
    width?: 'half' | 'full';
    note?: string | null;
    sort?: number | null;
    validation?: Record<string, unknown> | null;
    validation_message?: string | null;
    special?: string[] | null;
    translations?: Array<{ language: string; translation: string }> | null;
    group?: string | null;
  } | null;
  schema: {
    default_value?: unknown;
    max_length?: number | null;
    numeric_precision?: number | null;
    numeric_scale?: number | null;
    is_nullable?: boolean;
    is_unique?: boolean;
    is_primary_key?: boolean;
    foreign_key_table?: string | null;
  } | null;
}

/** True when the picker knows the type (alias and other fields are edited without a type change). */
export function isPickerType(type: string): type is FieldType {
  return (FIELD_TYPES as readonly string[]).includes(type);
}

/** A stored field as the form's values. */
export function toFieldFormValues(record: FieldRecord): FieldFormValues {
  const type = isPickerType(record.type) ? record.type : 'string';
  const meta = record.meta ?? {};
  const schema = record.schema ?? {};
  const rawChoices = (meta.options as { choices?: Array<{ text?: unknown; value?: unknown }> } | null | undefined)?.choices ?? [];
  return {
    field: record.field,
    type,
    interface: meta.interface ?? defaultInterface(type),
    required: meta.required ?? false,
    readonly: meta.readonly ?? false,
    hidden: meta.hidden ?? false,
    width: meta.width ?? 'full',
    note: meta.note ?? null,
    unique: schema.is_unique ?? false,
    nullable: schema.is_nullable ?? true,
    default_value: schema.default_value === null || schema.default_value === undefined ? null : String(schema.default_value),
    max_length: schema.max_length ?? null,
    numeric_precision: schema.numeric_precision ?? null,
    numeric_scale: schema.numeric_scale ?? null,
    choices: rawChoices.map((choice) => ({ text: String(choice.text ?? ''), value: String(choice.value ?? '') })),
    // Flat choices are edited in their own list; others (a checkbox tree's nested ones) are an option like any other.
    options: withOptionDefaults(meta.interface, Object.fromEntries(Object.entries(meta.options ?? {}).filter(([name]) => name !== 'choices' || !CHOICE_INTERFACES.includes(meta.interface ?? '')))),
    display: meta.display ?? null,
    display_options: withOptionDefaults(meta.display, meta.display_options, DISPLAY_OPTIONS),
    translations: meta.translations ?? [],
    group: meta.group ?? null,
    validation: toJsonText(meta.validation),
    validation_message: meta.validation_message ?? null,
  };
}

/** The interfaces of a recursive one-to-many (a parent field pointing at its own collection): a list or a tree. */
export const RECURSIVE_O2M_INTERFACES = ['list-o2m', 'list-o2m-tree-view'] as const;

/** Group field interfaces (Directus's names). */
export const GROUP_INTERFACES = ['group-detail', 'group-accordion', 'group-raw'] as const;

/** Presentation interfaces (Directus's names): alias fields that hold no data, drawn in the form. */
export const PRESENTATION_INTERFACES = ['presentation-divider', 'presentation-notice', 'presentation-links', 'header'] as const;

/** An alias field the group modal creates: a group, or a presentation element. */
export type AliasInterface = (typeof GROUP_INTERFACES)[number] | (typeof PRESENTATION_INTERFACES)[number];

/** The POST /fields/:collection body of a new group field (an alias holding other fields) or presentation field. */
export function toGroupPayload(values: { field: string; interface: AliasInterface }, sort: number | null): Record<string, unknown> {
  const group = (GROUP_INTERFACES as readonly string[]).includes(values.interface);
  return { field: values.field, type: 'alias', schema: null, meta: { special: group ? ['alias', 'no-data', 'group'] : ['alias', 'no-data'], interface: values.interface, options: null, width: 'full', ...(sort === null ? {} : { sort }) } };
}

export type { Sortable };

/** Fields in the order the item editor shows them (the one order of `content/schema/field-order.ts`). */
export const sortFields = orderFields;

/** The `meta.sort` writes that store a new order: one per field whose position changed. */
export function reorderWrites(ordered: readonly Sortable[]): Array<{ field: string; sort: number }> {
  return ordered.flatMap((field, index) => (field.meta?.sort === index + 1 ? [] : [{ field: field.field, sort: index + 1 }]));
}

/** The sort a new field gets: after the last one once every field has a place, else none (it comes last, in creation order). */
export function nextSort(fields: readonly Sortable[]): number | null {
  if (fields.length === 0 || fields.some((field) => field.meta?.sort === null || field.meta?.sort === undefined)) return null;
  return Math.max(...fields.map((field) => field.meta!.sort!)) + 1;
}

/** Moves the item at `from` to `to` (drag and drop), returning a new list. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}
