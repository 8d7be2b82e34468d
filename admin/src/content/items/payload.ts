import type { RelatedTarget } from '../interfaces/related.ts';
import { keyOf } from '../interfaces/related.ts';
import { anyPayload, anyReadPaths, isAnyTarget } from '../interfaces/many-to-any-rows.ts';
import { isToMany, relationalKind } from '../field-kinds.ts';
import { translationChanges } from './translation-rows.ts';
import type { FieldInfo } from '../schema/types.ts';

type Item = Record<string, unknown>;

/** The interface whose o2m value is a nested tree (list-o2m-tree-view). */
const TREE_VIEW_INTERFACE = 'list-o2m-tree-view';

/** The relational shape of a field the form edits as objects. */
export type TargetOf = (field: FieldInfo) => RelatedTarget | null;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * One relational value as the API takes it (docs/api.md, nested relational writes): m2o → key; o2m →
 * keys, with items created inline (objects without a key, already in payload form) sent as objects;
 * m2m → junction keys for kept rows, new junction rows naming an existing item's key or, for an item
 * created inline, the item itself.
 */
export function relationalValue(field: FieldInfo, value: unknown, target: RelatedTarget | null): unknown {
  if (!target || value === null || value === undefined) return value ?? null;
  if (!Array.isArray(value)) return keyOf(value, target.primaryKey);
  if (isAnyTarget(target)) return anyPayload(value, target);
  // The tree view sends its nested lists already in payload form (interfaces/tree-nodes.ts).
  if (field.meta?.interface === TREE_VIEW_INTERFACE) return value;
  if (!target.junction) return value.map((item) => keyOf(item, target.primaryKey) ?? item);
  const junction = target.junction;
  return value.map((row: Item) => {
    const junctionKey = row[junction.primaryKey];
    if (junctionKey !== undefined && junctionKey !== null) return junctionKey;
    const related = row[junction.field];
    return { [junction.field]: keyOf(related, target.primaryKey) ?? related };
  });
}

/** Schema defaults of the fields (literals only: `now()` and the like are left to the database). */
export function defaultValues(fields: { field: string; schema: { default_value: unknown } | null }[]): Item {
  const values: Item = {};
  for (const field of fields) {
    const value = field.schema?.default_value;
    if (value !== null && value !== undefined && !(typeof value === 'string' && /\(\)$/.test(value))) values[field.field] = value;
  }
  return values;
}

/**
 * What the form sends: values of editable fields only, relational values as keys, and on update only
 * what changed (a role may update fewer fields than it reads).
 */
export function toPayload(fields: FieldInfo[], values: Item, initial: Item | null, editable: (field: FieldInfo) => boolean, targetOf: TargetOf, fieldsOf: (collection: string) => string[] = () => []): Item {
  const payload: Item = {};
  for (const field of fields) {
    if (!(field.field in values) || !editable(field)) continue;
    const target = targetOf(field);
    if (relationalKind(field) === 'translations' && target?.junction) {
      // Translations send only what changed: new languages, changed fields, languages emptied.
      const junction = target.junction;
      const shape = { primaryKey: junction.primaryKey, languageField: junction.field, languageKey: target.primaryKey };
      const translated = fieldsOf(junction.collection).filter((name) => ![junction.primaryKey, junction.field, junction.backField].includes(name));
      const rows = (list: unknown) => (Array.isArray(list) ? (list as Item[]) : []);
      const changes = translationChanges(rows(initial?.[field.field]), rows(values[field.field]), translated, shape);
      if (changes) payload[field.field] = changes;
      continue;
    }
    // A new item leaves untouched fields to the database (defaults); an empty list is not a value either.
    if (!initial && (values[field.field] === undefined || (values[field.field] === null && isToMany(field)))) continue;
    const value = relationalValue(field, values[field.field], targetOf(field));
    if (initial && same(value, relationalValue(field, initial[field.field], targetOf(field)))) continue;
    payload[field.field] = value;
  }
  return payload;
}

/** The `fields` to read an item for the form: everything, relational fields expanded for their labels. */
export function formReadFields(fields: FieldInfo[], targetOf: TargetOf, labelFields: (collection: string) => string[]): string[] {
  const paths = ['*'];
  for (const field of fields) {
    const target = targetOf(field);
    if (!target) continue;
    if (isAnyTarget(target)) {
      paths.push(...anyReadPaths(field.field, target, labelFields));
      continue;
    }
    const labels = labelFields(target.collection);
    if (relationalKind(field) === 'translations' && target.junction) {
      // The translations interface edits the junction rows' own fields.
      paths.push(`${field.field}.*`);
      continue;
    }
    if (target.junction) {
      paths.push(`${field.field}.${target.junction.primaryKey}`);
      for (const label of labels) paths.push(`${field.field}.${target.junction.field}.${label}`);
    } else {
      for (const label of labels) paths.push(`${field.field}.${label}`);
    }
  }
  return paths;
}
