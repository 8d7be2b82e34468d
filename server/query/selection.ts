import { InvalidQueryError } from '../errors.ts';
import type { CollectionOverview, FieldOverview } from '../schema/overview.ts';
import { selectScope, type CompileContext } from './context.ts';
import { compileFilter, splitScope } from './compile-filter.ts';
import { compileSort, compileSortKeys, defaultSort } from './compile-sort.ts';
import { nestedAfterCondition } from './nested-cursor.ts';
import { assertDepth, functionKey, parseFunctionCall, type FunctionCall } from './field-functions.ts';
import { isObject } from './parse-values.ts';
import { chargeSelection } from './selection-budget.ts';
import { canReadField, readableField } from './policy.ts';
import { findRelation, isDataless, type ManyToAny, type ManyToOne, type OneToMany } from './schema-lookup.ts';
import type { DeepQuery } from './types.ts';

/** A related collection's selection with the deep options for it. */
export interface RelatedSelection {
  tree: SelectionTree;
  deep: DeepQuery | undefined;
}

/** One output key of an item and what produces it. */
export type Selection =
  | { kind: 'column'; key: string; field: FieldOverview }
  | { kind: 'function'; key: string; call: FunctionCall }
  | { kind: 'm2o'; key: string; field: string; relation: ManyToOne; related: RelatedSelection }
  | { kind: 'o2m'; key: string; relation: OneToMany; tree: SelectionTree | null; deep: DeepQuery | undefined }
  | { kind: 'm2a'; key: string; field: FieldOverview; relation: ManyToAny; related: Map<string, RelatedSelection> };

/** What to read from one collection: validated, wildcards expanded, in request order. */
export interface SelectionTree {
  collection: CollectionOverview;
  depth: number;
  /** Path from the root, for messages: `comments.`. */
  prefix: string;
  selections: Selection[];
}

interface Entry {
  field: FieldOverview;
  children: string[];
  scoped: Map<string, string[]>;
}

interface Level {
  alias?: Record<string, string>;
  deep?: Record<string, DeepQuery>;
  depth: number;
  prefix: string;
}

const ALIAS_NAME = /^[^.,:*()\s]+$/;
/** A field path of plain names, `*` and `field:collection` scopes: `ingredients.foods_id.*`. */
const PLAIN_PATH = /^[A-Za-z_][\w-]*(:[A-Za-z_][\w-]*)?(\.(\*|[A-Za-z_][\w-]*(:[A-Za-z_][\w-]*)?))+$/;

function checkAliases(ctx: CompileContext, collection: CollectionOverview, alias: Record<string, string>): void {
  for (const [name, target] of Object.entries(alias)) {
    if (!ALIAS_NAME.test(name) || Object.hasOwn(collection.fields, name)) {
      throw new InvalidQueryError(`alias "${name}" must be a new name without dots, commas, colons, parentheses or "*".`);
    }
    if (typeof target !== 'string' || !ALIAS_NAME.test(target)) {
      throw new InvalidQueryError(`alias "${name}" must name a field of "${collection.collection}" (no dots).`);
    }
    readableField(ctx, collection, target, 'alias');
  }
}

function collect(ctx: CompileContext, collection: CollectionOverview, fields: readonly string[], level: Level): Map<string, Entry | FunctionCall> {
  const entries = new Map<string, Entry | FunctionCall>();
  const add = (key: string, field: FieldOverview, rest: string | null, scope?: string): void => {
    const existing = entries.get(key);
    const entry = existing && 'children' in existing ? existing : { field, children: [], scoped: new Map<string, string[]>() };
    entries.set(key, entry);
    if (rest === null) return;
    if (scope === undefined) entry.children.push(rest);
    else entry.scoped.set(scope, [...(entry.scoped.get(scope) ?? []), rest]);
  };
  for (const path of fields) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    const rest = dot < 0 ? null : path.slice(dot + 1);
    if (!head || rest === '') throw new InvalidQueryError(`Invalid field path "${level.prefix}${path}".`);
    if (head === '*') {
      for (const field of Object.values(collection.fields)) {
        if (!canReadField(ctx, collection.collection, field.field) || isDataless(ctx.schema, collection.collection, field)) continue;
        const relational = findRelation(ctx.schema, collection.collection, field.field) !== null;
        add(field.field, field, rest !== null && relational ? rest : null);
      }
      continue;
    }
    const call = parseFunctionCall(head);
    if (call) {
      if (rest !== null) throw new InvalidQueryError(`Invalid field path "${level.prefix}${path}": a function must come last.`);
      entries.set(functionKey(call), call);
      continue;
    }
    const [key, scope] = splitScope(head);
    const target = level.alias && Object.hasOwn(level.alias, key) ? (level.alias[key] as string) : key;
    // Directus ignores a path through a field the collection does not have (its suite reads junctions with
    // a field name of another key type). Only for callers who may read every field: for the others an
    // unknown field must still answer as a forbidden one does, so that neither reveals which fields exist.
    // A path with anything but names, wildcards and scopes in it is still refused: it is no field path at all.
    if (rest !== null && PLAIN_PATH.test(path) && !Object.hasOwn(collection.fields, target) && ctx.policy.allowedFields(collection.collection) === '*') continue;
    const field = readableField(ctx, collection, target, 'fields');
    if (scope !== undefined && rest === null) throw new InvalidQueryError(`"${level.prefix}${path}" needs a field after the scope, e.g. ${head}.id.`);
    if (!isDataless(ctx.schema, collection.collection, field)) add(key, field, rest, scope);
  }
  return entries;
}

/** Validates `deep` at this level and every level under it (the whole tree, from the root). */
function checkDeep(ctx: CompileContext, collection: CollectionOverview, level: Level): void {
  for (const [key, options] of Object.entries(level.deep ?? {})) {
    const [name, scope] = splitScope(key);
    const label = `deep.${level.prefix}${key}`;
    const target = level.alias && Object.hasOwn(level.alias, name) ? (level.alias[name] as string) : name;
    readableField(ctx, collection, target, 'deep');
    const relation = findRelation(ctx.schema, collection.collection, target);
    const related =
      relation?.type === 'm2a' ? relation.allowed.find((candidate) => candidate.collection === scope) : scope === undefined ? relation?.related : undefined;
    if (!related || !isObject(options)) throw new InvalidQueryError(`${label} must name a relational field (many-to-any ones with a collection scope).`);
    const deep: DeepQuery = options;
    // One item has no order: a _sort is checked below (fields, permissions, depth) and then has no effect, as in Directus.
    if (relation?.type !== 'o2m' && [deep.limit, deep.offset, deep.page, deep.after].some((option) => option !== undefined)) {
      throw new InvalidQueryError(`${label} points to one item: only _filter and _search apply (a _sort is accepted and changes nothing).`);
    }
    // Checked here even when the relation is not selected, so no deep option goes unvalidated.
    const scratch = selectScope(ctx, related, level.depth + 1);
    if (deep.filter) compileFilter(ctx, scratch, deep.filter, { trusted: false, usage: `${label}._filter` });
    if (deep.sort) compileSort(ctx, scratch, deep.sort, `${label}._sort`);
    if (deep.after !== undefined && relation?.type === 'o2m') {
      const sort = deep.sort ?? defaultSort(ctx, related, relation.relation.meta.sortField);
      nestedAfterCondition(ctx, compileSortKeys(ctx, scratch, sort, `${label}._sort`), sort, relation, deep, `${label}.`);
    }
    if (deep.deep) checkDeep(ctx, related, { deep: deep.deep, depth: level.depth + 1, prefix: `${level.prefix}${key}.` });
  }
}

function related(ctx: CompileContext, collection: CollectionOverview, paths: string[], deep: DeepQuery | undefined, level: Level, key: string): RelatedSelection {
  const prefix = `${level.prefix}${key}.`;
  assertDepth(level.depth + 1, `${prefix}${paths[0] ?? ''}`);
  return { tree: buildSelection(ctx, collection, paths, { deep: deep?.deep, depth: level.depth + 1, prefix }), deep };
}

/** Whether an unscoped path under a many-to-any field applies to `collection`: wildcards always, a field where it has one. */
function appliesTo(collection: CollectionOverview, path: string): boolean {
  const head = path.split('.')[0]!;
  if (head === '*') return true;
  const name = parseFunctionCall(head)?.field ?? splitScope(head)[0];
  return Object.hasOwn(collection.fields, name);
}

/**
 * The selections of each collection a many-to-any field may point to. As in Directus, a path without a
 * collection scope (`item.id`) applies to every allowed collection that has its field, a scoped one
 * (`item:pages.title`) to that collection only; a path no allowed collection has is a 400.
 */
function manyToAny(ctx: CompileContext, key: string, entry: Entry, relation: ManyToAny, level: Level): Map<string, RelatedSelection> {
  const result = new Map<string, RelatedSelection>();
  const unscoped = entry.children;
  for (const path of unscoped) {
    if (!relation.allowed.some((collection) => appliesTo(collection, path))) {
      throw new InvalidQueryError(`"${level.prefix}${key}.${path}": no collection "${level.prefix}${key}" can point to has that field; name one, e.g. ${key}:${relation.allowed[0]?.collection ?? 'collection'}.id.`, { field: 'fields' });
    }
  }
  for (const scope of entry.scoped.keys()) {
    if (!relation.allowed.some((collection) => collection.collection === scope)) {
      throw new InvalidQueryError(`"${scope}" is not a collection "${level.prefix}${key}" can point to.`);
    }
  }
  for (const collection of relation.allowed) {
    const paths = [...unscoped.filter((path) => appliesTo(collection, path)), ...(entry.scoped.get(collection.collection) ?? [])];
    if (paths.length === 0) continue;
    chargeSelection(ctx, `${level.prefix}${key}:${collection.collection}`, true);
    const deep = level.deep?.[`${key}:${collection.collection}`];
    result.set(collection.collection, related(ctx, collection, paths, deep, level, `${key}:${collection.collection}`));
  }
  return result;
}

function toSelection(ctx: CompileContext, collection: CollectionOverview, key: string, entry: Entry, level: Level): Selection {
  const relation = findRelation(ctx.schema, collection.collection, entry.field.field);
  if (entry.scoped.size > 0 && relation?.type !== 'm2a') {
    throw new InvalidQueryError(`"${level.prefix}${key}" is not a many-to-any field; "field:collection" applies to many-to-any fields only.`);
  }
  const nested = entry.children.length > 0 || entry.scoped.size > 0;
  chargeSelection(ctx, `${level.prefix}${key}`, relation?.type === 'o2m' || (nested && relation?.type === 'm2o'));
  const deep = level.deep && Object.hasOwn(level.deep, key) ? level.deep[key] : undefined;
  if (relation?.type === 'o2m') {
    const tree = nested ? related(ctx, relation.related, entry.children, deep, level, key).tree : null;
    return { kind: 'o2m', key, relation, tree, deep };
  }
  if (!nested) return { kind: 'column', key, field: entry.field };
  if (relation?.type === 'm2o') {
    return { kind: 'm2o', key, field: entry.field.field, relation, related: related(ctx, relation.related, entry.children, deep, level, key) };
  }
  if (relation?.type === 'm2a') return { kind: 'm2a', key, field: entry.field, relation, related: manyToAny(ctx, key, entry, relation, level) };
  throw new InvalidQueryError(`"${level.prefix}${key}" is not a relational field, so "${level.prefix}${key}.${entry.children[0]}" cannot be selected.`);
}

function functionSelection(ctx: CompileContext, key: string, call: FunctionCall, level: Level): Selection {
  chargeSelection(ctx, `${level.prefix}${key}`, call.fn === 'count');
  return { kind: 'function', key, call };
}

/**
 * Turns `fields` (with `alias` and `deep` at the root) into a selection tree for `collection`: paths must
 * exist and be readable (`*` expands to readable fields only), relations nest up to MAX_RELATIONAL_DEPTH.
 */
export function buildSelection(ctx: CompileContext, collection: CollectionOverview, fields: readonly string[], level: Level): SelectionTree {
  if (level.alias) checkAliases(ctx, collection, level.alias);
  if (level.depth === 0) checkDeep(ctx, collection, level);
  const selections = [...collect(ctx, collection, fields, level)].map(([key, entry]): Selection =>
    'fn' in entry ? functionSelection(ctx, key, entry, level) : toSelection(ctx, collection, key, entry, level),
  );
  return { collection, depth: level.depth, prefix: level.prefix, selections };
}
