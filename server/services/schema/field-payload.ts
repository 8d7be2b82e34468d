import * as yup from 'yup';
import { InvalidPayloadError } from '../../errors.ts';
import { TYPE_SPECIALS } from '../../schema/column-types.ts';
import { field as defineField } from '../../schema/system/define.ts';
import { FIELD_SPECIALS, FIELD_TYPES, FIELD_WIDTHS, type FieldMeta, type FieldSpecial, type FieldType } from '../../schema/types.ts';
import { validationRuleProblem } from '../../permissions/validate-payload.ts';
import { jsonObjectSchema, lenientObject, oneOfValues, translationsSchema } from './yup-helpers.ts';

/** Specials an alias field (no column) is made for. */
export const ALIAS_SPECIALS: readonly FieldSpecial[] = ['o2m', 'm2m', 'm2a', 'files', 'translations', 'group', 'no-data', 'alias'];

/** Field metadata a client may set (SPEC.md §3 "Field metadata"); other keys (id, system, Directus-only ones) are ignored. */
export const fieldMetaSchema = lenientObject({
    id: yup.mixed().strip(),
    collection: yup.mixed().strip(),
    field: yup.mixed().strip(),
    system: yup.mixed().strip(),
    special: yup
      .array(oneOfValues(FIELD_SPECIALS).required())
      .transform((value, original) => (typeof original === 'string' ? original.split(',').map((item) => item.trim()).filter(Boolean) : value))
      .nullable(),
    interface: yup.string().max(64).nullable(),
    options: jsonObjectSchema(),
    display: yup.string().max(64).nullable(),
    display_options: jsonObjectSchema(),
    readonly: yup.boolean(),
    hidden: yup.boolean(),
    sort: yup.number().integer().nullable(),
    width: oneOfValues(FIELD_WIDTHS),
    group: yup.string().max(64).nullable(),
    translations: translationsSchema(),
    note: yup.string().nullable(),
    conditions: yup.array().nullable(),
    required: yup.boolean(),
    validation: jsonObjectSchema().test('rule', (value, context) => {
      const problem = value === undefined || value === null ? null : validationRuleProblem(value);
      return problem === null || context.createError({ message: `\${path}: ${problem}.` });
    }),
    validation_message: yup.string().max(1000).nullable(),
  })
  .nullable()
  .default(undefined);

/** Column settings a client may set; other keys (those of a read `schema` object, `length` …) are ignored. */
export const columnSchema = lenientObject({
    default_value: yup.mixed().nullable(),
    max_length: yup.number().integer().min(1).max(10_485_760).nullable(),
    numeric_precision: yup.number().integer().min(1).max(1000).nullable(),
    numeric_scale: yup.number().integer().min(0).max(1000).nullable(),
    is_nullable: yup.boolean(),
    is_unique: yup.boolean(),
    /** A plain btree index on the column (server/indexes/managed-indexes.ts); not part of the column definition. */
    is_indexed: yup.boolean(),
    is_primary_key: yup.boolean(),
    has_auto_increment: yup.boolean(),
  })
  .nullable()
  .default(undefined);

/** POST /fields/:collection, and each entry of `fields` in POST /collections. */
export const newFieldSchema = yup
  .object({
    collection: yup.mixed().strip(),
    field: yup.string().required(),
    type: oneOfValues(FIELD_TYPES).required(),
    meta: fieldMetaSchema,
    schema: columnSchema,
  })
  .exact();

/** PATCH /fields/:collection/:field: every part optional. */
export const fieldUpdateSchema = yup
  .object({
    collection: yup.mixed().strip(),
    field: yup.mixed().strip(),
    type: oneOfValues(FIELD_TYPES),
    meta: fieldMetaSchema,
    schema: columnSchema,
  })
  .exact();

/** Validated field metadata. */
export type FieldMetaInput = Partial<FieldMeta>;
/** Validated column settings. */
export type ColumnInput = NonNullable<yup.InferType<typeof columnSchema>>;

/** A field ready to be created: complete metadata, and column settings unless it is an alias. */
export interface NewField {
  field: string;
  type: FieldType;
  meta: FieldMeta;
  column: ColumnInput | null;
}

/**
 * `special` with the special the type needs to read back as itself (hash → hash, json → cast-json …), and
 * without the one of the type a field leaves. csv is the exception: as in Directus, only a `cast-csv` the
 * caller sends makes a csv field split into a list; without it the field is a text field (issue 31).
 */
export function withTypeSpecials(special: FieldSpecial[] | null, type: FieldType, previousType?: FieldType): FieldSpecial[] | null {
  const stale = previousType && previousType !== type ? TYPE_SPECIALS[previousType] : undefined;
  const needed = type === 'csv' ? undefined : TYPE_SPECIALS[type];
  const result = (special ?? []).filter((item) => item !== stale);
  if (needed && !result.includes(needed)) result.push(needed);
  return result.length > 0 ? result : null;
}

/** The type a new field reads back as: csv without `cast-csv` is a text column holding the joined string. */
function storedType(type: FieldType, special: readonly string[] | null | undefined): FieldType {
  return type === 'csv' && !special?.includes('cast-csv') ? 'text' : type;
}

/**
 * Completes a validated field payload: metadata defaults by type (interface, width full, specials such as
 * cast-json or hash + conceal), the special the type needs, and `uuid` on uuid primary keys.
 */
export function prepareNewField(input: yup.InferType<typeof newFieldSchema>, path: string): NewField {
  const type = storedType(input.type as FieldType, input.meta?.special);
  const meta = defineField(input.field, type, (input.meta ?? {}) as FieldMetaInput).meta;
  meta.special = withTypeSpecials(meta.special, type);
  if (type === 'alias') {
    if (!meta.special?.some((special) => ALIAS_SPECIALS.includes(special))) {
      throw new InvalidPayloadError(`${path}.meta.special of an alias field must include one of: ${ALIAS_SPECIALS.join(', ')}.`, { field: `${path}.meta.special` });
    }
    return { field: input.field, type, meta, column: null };
  }
  const column = { ...(input.schema ?? {}) } as ColumnInput;
  if (column.is_primary_key && type === 'uuid' && !meta.special?.includes('uuid')) meta.special = [...(meta.special ?? []), 'uuid'];
  return { field: input.field, type, meta, column };
}

/** tessera_fields columns of `meta` (JSON columns serialised, specials as CSV); only the keys given. */
export function fieldMetaRow(meta: FieldMetaInput): Record<string, unknown> {
  const row: Record<string, unknown> = { ...meta };
  if (meta.special !== undefined) row.special = meta.special && meta.special.length > 0 ? meta.special.join(',') : null;
  for (const column of ['options', 'display_options', 'translations', 'conditions', 'validation'] as const) {
    if (meta[column] !== undefined) row[column] = meta[column] === null ? null : JSON.stringify(meta[column]);
  }
  return row;
}
