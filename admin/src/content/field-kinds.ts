import type { FieldInfo } from './schema/types.ts';

/** The relational kind of a field (from its specials), or null for a plain value. */
export function relationalKind(field: FieldInfo): 'm2o' | 'o2m' | 'm2m' | 'm2a' | 'files' | 'translations' | null {
  const special = field.meta?.special ?? [];
  for (const kind of ['m2m', 'files', 'm2a', 'o2m', 'translations', 'm2o'] as const) if (special.includes(kind)) return kind;
  return null;
}

/** Fields that hold no data (groups, dividers). */
export function isPresentational(field: FieldInfo): boolean {
  const special = field.meta?.special ?? [];
  return special.includes('group') || special.includes('no-data');
}

/** Whether an interface draws a presentation element (no value of its own): Directus's `presentation-*` ones and `header`. */
export function isPresentationInterface(name: string | null | undefined): boolean {
  return Boolean(name && (name.startsWith('presentation-') || name === 'header'));
}

/** Numeric field types. */
export function isNumeric(field: FieldInfo): boolean {
  return ['integer', 'bigInteger', 'float', 'decimal'].includes(field.type);
}

/** Whether the field is a list of related items (o2m, m2m, files, translations, m2a). */
export function isToMany(field: FieldInfo): boolean {
  const kind = relationalKind(field);
  return kind !== null && kind !== 'm2o';
}
