import { fieldLabel } from '../field-label.ts';
import { isPresentational, isToMany, relationalKind } from '../field-kinds.ts';
import { choicesOf } from '../interfaces/dropdown.tsx';
import { relatedTarget } from '../interfaces/related.ts';
import type { SchemaState } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';
import type { FilterableField } from './filter-builder.tsx';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A field holding a plain value the builder can compare (not a list of related items, not a group). */
function isPlain(field: FieldInfo): boolean {
  return !isPresentational(field) && !isToMany(field) && !field.meta?.hidden;
}

function entry(path: string, label: string, field: FieldInfo): FilterableField {
  return { field: path, label, type: field.type, choices: choicesOf(field.meta?.options ?? {}), info: field };
}

/**
 * What the list's filter builder offers for a collection: its own plain fields; through each many-to-one,
 * the related collection's fields (`author.name`); through each one-to-many, its items' fields quantified
 * as Directus filters them (`comments._some.approved`: some item matches, `comments._none.…`: none does).
 * One level deep, which covers "articles by an author named …" without a tree picker.
 */
export function filterableFields(schema: SchemaState, fields: FieldInfo[], locale: string, translate: Translate): FilterableField[] {
  const own = fields.filter(isPlain).map((field) => entry(field.field, fieldLabel(field, locale), field));
  const related: FilterableField[] = [];
  for (const field of fields) {
    if (field.meta?.hidden) continue;
    const kind = relationalKind(field);
    if (kind !== 'm2o' && kind !== 'o2m') continue;
    const target = relatedTarget(schema, field);
    if (!target || target.junction || target.any) continue;
    const relation = fieldLabel(field, locale);
    const children = schema.fieldsOf(target.collection).filter((child) => isPlain(child) && child.field !== target.backField);
    for (const child of children) {
      const label = fieldLabel(child, locale);
      if (kind === 'm2o') related.push(entry(`${field.field}.${child.field}`, translate('content.filter.related', { relation, field: label }), child));
      else {
        related.push(entry(`${field.field}._some.${child.field}`, translate('content.filter.some', { relation, field: label }), child));
        related.push(entry(`${field.field}._none.${child.field}`, translate('content.filter.none', { relation, field: label }), child));
      }
    }
  }
  return [...own, ...related];
}
