import { orderFields } from './field-order.ts';

/** The parts of a field its place in the form depends on. */
export interface Groupable {
  field: string;
  meta: { sort?: number | null; group?: string | null; special?: string[] | null } | null;
}

/** A field of the form and, for a group field, the fields it holds. */
export interface FieldNode<T extends Groupable> {
  field: T;
  children: FieldNode<T>[];
}

/** A group field: an alias with the `group` special (interfaces group-raw, group-detail, group-accordion). */
export function isGroupField(field: Groupable): boolean {
  return field.meta?.special?.includes('group') ?? false;
}

/**
 * The form's fields as a tree: a field whose `meta.group` names a group field of the collection sits in
 * that group, every level in `meta.sort` order. A field naming a missing (or non-group) field, or a
 * group cycle, stays at the top level, so no field ever disappears from the form.
 */
export function fieldTree<T extends Groupable>(fields: readonly T[]): FieldNode<T>[] {
  const groups = new Map(fields.filter(isGroupField).map((field) => [field.field, field]));
  const parentOf = (field: T): string | null => {
    const group = field.meta?.group ?? null;
    if (!group || group === field.field || !groups.has(group)) return null;
    // Walk up: a cycle (a in b, b in a) puts the field at the top.
    const seen = new Set([field.field]);
    for (let at: string | null = group; at; at = groups.get(at)?.meta?.group ?? null) {
      if (seen.has(at)) return null;
      seen.add(at);
      if (!groups.has(at)) break;
    }
    return group;
  };
  const build = (parent: string | null): FieldNode<T>[] =>
    orderFields(fields.filter((field) => parentOf(field) === parent)).map((field) => ({ field, children: isGroupField(field) ? build(field.field) : [] }));
  return build(null);
}
