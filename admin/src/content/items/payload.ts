import type { RelatedTarget } from '../interfaces/related.ts';
import { keyOf } from '../interfaces/related.ts';
import type { FieldInfo } from '../schema/types.ts';

type Item = Record<string, unknown>;

/** The relational shape of a field the form edits as objects. */
export type TargetOf = (field: FieldInfo) => RelatedTarget | null;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** One relational value as the API takes it: m2o → key; o2m → keys; m2m → junction keys or new rows. */
export function relationalValue(field: FieldInfo, value: unknown, target: RelatedTarget | null): unknown {
  if (!target || value === null || value === undefined) return value ?? null;
  if (!Array.isArray(value)) return keyOf(value, target.primaryKey);
  if (!target.junction) return value.map((item) => keyOf(item, target.primaryKey));
  const junction = target.junction;
  return value.map((row: Item) => {
    const junctionKey = row[junction.primaryKey];
    if (junctionKey !== undefined && junctionKey !== null) return junctionKey;
    return { [junction.field]: keyOf(row[junction.field], target.primaryKey) };
  });
}

/**
 * What the form sends: values of editable fields only, relational values as keys, and on update only
 * what changed (a role may update fewer fields than it reads).
 */
export function toPayload(fields: FieldInfo[], values: Item, initial: Item | null, editable: (field: FieldInfo) => boolean, targetOf: TargetOf): Item {
  const payload: Item = {};
  for (const field of fields) {
    if (!(field.field in values) || !editable(field)) continue;
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
    const labels = labelFields(target.collection);
    if (target.junction) {
      paths.push(`${field.field}.${target.junction.primaryKey}`);
      for (const label of labels) paths.push(`${field.field}.${target.junction.field}.${label}`);
    } else {
      for (const label of labels) paths.push(`${field.field}.${label}`);
    }
  }
  return paths;
}
