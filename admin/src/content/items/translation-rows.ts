/**
 * The rows of a translations field (Directus's `translations` special: junction rows, one per language,
 * holding the translated fields) as the translations interface edits them, and the change set the item
 * form sends for them. Pure logic.
 */
import { keyOf } from '../interfaces/related.ts';

type Row = Record<string, unknown>;
type Key = string | number;

/** How the junction rows are keyed: their own key, and the field naming their language. */
export interface TranslationShape {
  primaryKey: string;
  languageField: string;
  /** The primary key field of the languages collection (the language field may hold an object). */
  languageKey: string;
}

/** The change set of an o2m/m2m field as the API takes it (docs/api.md, nested relational writes). */
export interface TranslationChanges {
  create: Row[];
  update: Row[];
  delete: Key[];
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The language a row is in. */
export function languageOf(row: Row, shape: TranslationShape): Key | null {
  return keyOf(row[shape.languageField], shape.languageKey);
}

/** The row of `language`, if the item has one. */
export function rowFor(rows: Row[], language: Key, shape: TranslationShape): Row | undefined {
  return rows.find((row) => String(languageOf(row, shape)) === String(language));
}

/** The rows with `field` of `language` set to `value`; a language without a row gets a new one. */
export function withValue(rows: Row[], language: Key, field: string, value: unknown, shape: TranslationShape): Row[] {
  if (!rowFor(rows, language, shape)) return [...rows, { [shape.languageField]: language, [field]: value }];
  return rows.map((row) => (String(languageOf(row, shape)) === String(language) ? { ...row, [field]: value } : row));
}

/** How many of `fields` the language's row fills. */
export function completeness(rows: Row[], language: Key, fields: string[], shape: TranslationShape): { filled: number; total: number } {
  const row = rowFor(rows, language, shape);
  return { filled: row ? fields.filter((field) => !isEmpty(row[field])).length : 0, total: fields.length };
}

/**
 * What to send for the field: new rows of languages that got a value, the changed fields of existing rows,
 * and existing rows whose every field was emptied (a language taken out). Null when nothing changed.
 */
export function translationChanges(initial: Row[], current: Row[], fields: string[], shape: TranslationShape): TranslationChanges | null {
  const changes: TranslationChanges = { create: [], update: [], delete: [] };
  for (const row of current) {
    const language = languageOf(row, shape);
    if (language === null) continue;
    const key = keyOf(row, shape.primaryKey);
    const before = key === null ? undefined : initial.find((entry) => keyOf(entry, shape.primaryKey) === key);
    const values = Object.fromEntries(fields.filter((field) => field in row).map((field) => [field, row[field]]));
    if (!before) {
      if (Object.values(values).some((value) => !isEmpty(value))) changes.create.push({ [shape.languageField]: language, ...values });
      continue;
    }
    if (fields.every((field) => isEmpty(field in row ? row[field] : before[field]))) {
      changes.delete.push(key as Key);
      continue;
    }
    const changed = Object.fromEntries(Object.entries(values).filter(([field, value]) => JSON.stringify(value ?? null) !== JSON.stringify(before[field] ?? null)));
    if (Object.keys(changed).length > 0) changes.update.push({ [shape.primaryKey]: key, ...changed });
  }
  return changes.create.length + changes.update.length + changes.delete.length > 0 ? changes : null;
}
