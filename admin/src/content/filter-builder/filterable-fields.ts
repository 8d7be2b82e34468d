import { fieldLabel } from '../field-label.ts';
import { isPresentational, isToMany, relationalKind } from '../field-kinds.ts';
import { choicesOf } from '../interfaces/dropdown.tsx';
import { relatedTarget } from '../interfaces/related.ts';
import { collectionLabel } from '../navigation.ts';
import type { SchemaState } from '../schema/schema-context.tsx';
import type { FieldInfo, RelationInfo } from '../schema/types.ts';
import type { FilterableField } from './filter-builder.tsx';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** How many relations a path may go through (`author.country.name` goes through two). */
export const MAX_RELATION_HOPS = 2;

/** A field holding a plain value the builder can compare (not a list of related items, not a group). */
function isPlain(field: FieldInfo): boolean {
  return !isPresentational(field) && !isToMany(field) && !field.meta?.hidden;
}

function entry(path: string, label: string, field: FieldInfo): FilterableField {
  return { field: path, label, type: field.type, choices: choicesOf(field.meta?.options ?? {}), info: field };
}

/** Whether two relational fields are the two ends of one link (an m2o and its o2m, or both sides of one junction). */
function sameLink(a: RelationInfo | undefined, b: RelationInfo | undefined): boolean {
  if (!a || !b) return false;
  return a === b || (Boolean(a.meta?.junction_field) && Boolean(b.meta?.junction_field) && a.collection === b.collection);
}

interface Walk {
  schema: SchemaState;
  locale: string;
  translate: Translate;
}

/**
 * The paths under one collection's fields: its plain fields, then through each relation the related fields,
 * up to MAX_RELATION_HOPS relations deep. `cameBy` is the relation that led here: going straight back
 * through it (`author.articles.…`) only finds the items the filter starts from, so it is left out.
 */
function pathsOf(walk: Walk, fields: FieldInfo[], hops: number, cameBy?: RelationInfo): FilterableField[] {
  const { schema, locale, translate } = walk;
  const back = (field: FieldInfo) => cameBy !== undefined && sameLink(cameBy, schema.relationOf(field.collection, field.field));
  const own = fields.filter((field) => isPlain(field) && !back(field)).map((field) => entry(field.field, fieldLabel(field, locale), field));
  if (hops >= MAX_RELATION_HOPS) return own;
  const related: FilterableField[] = [];
  // `prefix` joins this field's path to each path below it, `label` this relation's name to theirs.
  const below = (children: FilterableField[], prefix: string, label: (child: string) => string) =>
    children.map((child) => ({ ...child, field: `${prefix}.${child.field}`, label: label(child.label) }));
  for (const field of fields) {
    const kind = relationalKind(field);
    if (!kind || field.meta?.hidden || back(field)) continue;
    const target = relatedTarget(schema, field);
    if (!target) continue;
    const relation = fieldLabel(field, locale);
    const link = schema.relationOf(field.collection, field.field);
    const quantified = (children: FilterableField[], onward: string) => {
      for (const quantifier of ['some', 'none'] as const) {
        related.push(...below(children, `${field.field}._${quantifier}${onward}`, (child) => translate(`content.filter.${quantifier}`, { relation, field: child })));
      }
    };
    if (kind === 'm2o') {
      related.push(...below(pathsOf(walk, schema.fieldsOf(target.collection), hops + 1, link), field.field, (child) => translate('content.filter.related', { relation, field: child })));
    } else if (kind === 'o2m') {
      quantified(pathsOf(walk, schema.fieldsOf(target.collection), hops + 1, link), '');
    } else if (target.any) {
      // Many-to-any: each collection its items may come from, scoped as the API reads it (`item:headings.title`).
      for (const allowed of target.any.allowed) {
        const info = schema.collection(allowed.collection);
        const name = info ? collectionLabel(info, locale) : allowed.collection;
        const children = pathsOf(walk, schema.fieldsOf(allowed.collection), hops + 1);
        quantified(below(children, `${target.any.itemField}:${allowed.collection}`, (child) => translate('content.filter.related', { relation: name, field: child })), '');
      }
    } else if (target.junction && kind === 'translations') {
      // The translation rows' own fields (a headline in some language), and the language through its m2o
      // (which is the junction's other half, so not a way back).
      const junction = target.junction;
      quantified(pathsOf(walk, schema.fieldsOf(junction.collection).filter((child) => child.field !== junction.backField), hops + 1), '');
    } else if (target.junction) {
      // Many-to-many and files: through the junction row to the related item (`tags._some.tags_id.name`).
      quantified(pathsOf(walk, schema.fieldsOf(target.collection), hops + 1, link), `.${target.junction.field}`);
    }
  }
  return [...own, ...related];
}

/**
 * What the list's filter builder offers for a collection: its own plain fields; through each many-to-one,
 * the related collection's fields (`author.name`); through each one-to-many, many-to-many, files,
 * translations and many-to-any field, its items' fields quantified as Directus filters them
 * (`comments._some.approved`: some item matches, `tags._none.tags_id.name`: none does); and so on
 * through the related collections' own relations, MAX_RELATION_HOPS deep (`author.country.name`). Only the
 * fields the user may read are in the schema, so only those are offered.
 */
export function filterableFields(schema: SchemaState, fields: FieldInfo[], locale: string, translate: Translate): FilterableField[] {
  return pathsOf({ schema, locale, translate }, fields, 0);
}
