import { orderFields } from '../../content/schema/field-order.ts';

/** A field with its place and the group it sits in (`meta.group`). */
export interface Groupable {
  field: string;
  meta: { sort?: number | null; group?: string | null } | null;
}

/** One row of the data model's field list: the field, how deep it sits, and the group holding it. */
export interface FieldTreeRow<T extends Groupable> {
  field: T;
  depth: number;
  parent: string | null;
}

/**
 * Fields as the item form nests them: each level in `meta.sort` order, every group followed by its
 * children. A `meta.group` naming no field of the collection (or a loop of groups) puts the field at the
 * top level, as the item form does, so no field is ever hidden from the list.
 */
export function fieldTree<T extends Groupable>(fields: readonly T[]): FieldTreeRow<T>[] {
  const names = new Set(fields.map((field) => field.field));
  const parentOf = (field: T): string | null => {
    const group = field.meta?.group ?? null;
    return group !== null && group !== field.field && names.has(group) ? group : null;
  };
  const rows: FieldTreeRow<T>[] = [];
  const placed = new Set<string>();
  const visit = (parent: string | null, depth: number) => {
    for (const field of orderFields(fields.filter((candidate) => parentOf(candidate) === parent && !placed.has(candidate.field)))) {
      placed.add(field.field);
      rows.push({ field, depth, parent });
      visit(field.field, depth + 1);
    }
  };
  visit(null, 0);
  // Groups that hold each other in a loop reach no top level: list them flat at the end.
  for (const field of orderFields(fields.filter((candidate) => !placed.has(candidate.field)))) rows.push({ field, depth: 0, parent: null });
  return rows;
}

/** The fields sharing `row`'s group, in list order: the only rows a row can move among. */
export function siblingsOf<T extends Groupable>(rows: readonly FieldTreeRow<T>[], row: FieldTreeRow<T>): T[] {
  return rows.filter((candidate) => candidate.parent === row.parent && candidate.depth === row.depth).map((candidate) => candidate.field);
}
