import { displayReadFields } from '../displays/related-displays.tsx';
import { isToMany } from '../field-kinds.ts';
import { anyReadPaths, isAnyTarget } from '../interfaces/many-to-any-rows.ts';
import type { RelatedTarget } from '../interfaces/related.ts';
import type { FieldInfo } from '../schema/types.ts';

/**
 * The `fields` paths that read a field for showing it: a many-to-one's related item by its template (and
 * what its display needs); a to-many field's items the same way when `itemsOfToMany` (else only when its
 * display is `related-values`: a list cell shows a count), m2m items through the junction row as Directus
 * reads them; a many-to-any's rows per allowed collection; anything else as it is.
 */
export function showReadPaths(field: FieldInfo, target: RelatedTarget | null, labelFieldsOf: (collection: string) => string[], itemsOfToMany = false): string[] {
  const name = field.field;
  if (isAnyTarget(target)) return anyReadPaths(name, target, labelFieldsOf);
  const display = displayReadFields(field).map((path) => `${name}.${path}`);
  if (target && isToMany(field) && (itemsOfToMany || field.meta?.display === 'related-values' || field.meta?.display === 'translations')) {
    const labels = labelFieldsOf(target.collection).map((label) => (target.junction ? `${name}.${target.junction.field}.${label}` : `${name}.${label}`));
    return [...labels, ...display];
  }
  if (!target || target.junction || isToMany(field)) return [name];
  return [...labelFieldsOf(target.collection).map((label) => `${name}.${label}`), ...display];
}
