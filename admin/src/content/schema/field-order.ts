/** The parts of a field its order depends on. */
export interface Sortable {
  field: string;
  meta: { sort?: number | null } | null;
}

/**
 * THE order of a collection's fields, used by the form, the list's default columns and the data model:
 * `meta.sort`, then fields without one in the order the API lists them (creation order). Never by name,
 * so what the data model shows is what the form shows.
 */
export function orderFields<T extends Sortable>(fields: readonly T[]): T[] {
  return fields
    .map((field, index) => ({ field, index }))
    .sort((a, b) => (a.field.meta?.sort ?? Number.MAX_SAFE_INTEGER) - (b.field.meta?.sort ?? Number.MAX_SAFE_INTEGER) || a.index - b.index)
    .map((entry) => entry.field);
}
