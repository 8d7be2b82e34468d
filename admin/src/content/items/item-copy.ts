/**
 * "Save as copy" (collection meta `item_duplication_fields`) and archiving, as pure logic: which fields
 * to read, and the payload that creates the copy or (un)archives the item.
 */
import type { RelatedTarget } from '../interfaces/related.ts';
import { keyOf } from '../interfaces/related.ts';
import { relationalKind } from '../field-kinds.ts';
import { valueKindOf, type ValueKind } from '../field-type-table.ts';
import type { FieldInfo } from '../schema/types.ts';

type Item = Record<string, unknown>;

/** Values the server fills itself, never copied. */
const SERVER_FILLED = ['date-created', 'date-updated', 'user-created', 'user-updated', 'role-created', 'uuid'];

/**
 * The top-level fields a copy carries: `item_duplication_fields` (its entries' first segment, e.g.
 * `tags.*` → `tags`) or, without one, every non-relational field and every many-to-one; never the primary
 * key nor a value the server fills.
 */
export function copiedFields(fields: FieldInfo[], duplication: readonly string[] | null | undefined): FieldInfo[] {
  const named = duplication ? new Set(duplication.map((path) => path.split('.')[0]!)) : null;
  return fields.filter((field) => {
    if (field.schema?.is_primary_key) return false;
    if ((field.meta?.special ?? []).some((special) => SERVER_FILLED.includes(special))) return false;
    if (named) return named.has(field.field);
    const kind = relationalKind(field);
    return field.type !== 'alias' && (kind === null || kind === 'm2o');
  });
}

/**
 * The `fields` to read the original with: the duplication paths under a to-many field as written
 * (`translations.title`, `tags.tags_id`), or all of its rows' own fields (`tags.*`) when none or only
 * the field itself is named.
 */
export function copyReadFields(fields: FieldInfo[], targetOf: (field: FieldInfo) => RelatedTarget | null, duplication?: readonly string[] | null): string[] {
  return fields.flatMap((field) => {
    const target = targetOf(field);
    if (!target || field.type !== 'alias') return [field.field];
    const nested = (duplication ?? []).filter((path) => path.startsWith(`${field.field}.`) && path !== `${field.field}.*`);
    return nested.length > 0 ? nested : [`${field.field}.*`];
  });
}

/**
 * The create payload of the copy: scalars as they are, a many-to-one as its key, one-to-many children
 * created anew (without their key and their link back, which the API fills), many-to-many junction rows
 * created anew pointing at the same related items.
 */
export function copyPayload(original: Item, fields: FieldInfo[], targetOf: (field: FieldInfo) => RelatedTarget | null): Item {
  const payload: Item = {};
  for (const field of fields) {
    if (!(field.field in original)) continue;
    const value = original[field.field];
    const target = targetOf(field);
    if (!target || value === null || value === undefined) {
      payload[field.field] = value ?? null;
      continue;
    }
    if (!Array.isArray(value)) {
      payload[field.field] = keyOf(value, target.primaryKey);
      continue;
    }
    const strip = (row: Item, drop: (string | undefined)[]) => Object.fromEntries(Object.entries(row).filter(([name]) => !drop.includes(name)));
    if (target.junction) {
      const junction = target.junction;
      payload[field.field] = (value as Item[]).map((row) => {
        const rest = strip(row, [junction.primaryKey, junction.backField]);
        return { ...rest, [junction.field]: keyOf(row[junction.field], target.primaryKey) };
      });
    } else {
      payload[field.field] = (value as Item[]).map((row) => strip(row, [target.primaryKey, target.backField]));
    }
  }
  return payload;
}

const asText = (text: string): unknown => text;
const asNumber = (text: string): unknown => (Number.isNaN(Number(text)) ? text : Number(text));

/** An archive value's text as a value of each value kind. */
const ARCHIVE_VALUES = {
  boolean: (text) => text === 'true' || text === '1',
  integer: asNumber,
  bigInteger: asNumber,
  float: asNumber,
  decimal: asNumber,
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

/** An archive or unarchive value (stored as text in the collection's meta) as the field's type wants it. */
export function archiveValue(field: FieldInfo | undefined, text: string | null): unknown {
  if (text === null) return null;
  return field ? ARCHIVE_VALUES[valueKindOf(field.type)](text) : text;
}

/** Whether the item is archived: its archive field holds the archive value. */
export function isArchived(item: Item | null, field: FieldInfo | undefined, archive: string | null): boolean {
  if (!item || !field || archive === null) return false;
  return String(item[field.field]) === String(archiveValue(field, archive));
}
