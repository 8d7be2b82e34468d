import { getArgumentValues, isInputObjectType, Kind, type FieldNode, type GraphQLField, type GraphQLInputType, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { InvalidQueryError } from '../errors.ts';
import type { DeepQuery, Filter, Query } from '../query/types.ts';
import { toQueryFilter } from './filter-types.ts';
import type { FunctionExtension } from './function-fields.ts';

/** The list arguments every collection field and o2m field takes, as GraphQL gives them. */
export interface ListArgs {
  filter?: Filter | null;
  sort?: string[] | null;
  limit?: number | null;
  offset?: number | null;
  page?: number | null;
  search?: string | null;
  /** A cursor: `<collection>_next_cursor` of the previous page (cursor-fields.ts). */
  after?: string | null;
}

/** The Query options the list arguments name (nulls dropped); `filterType`, the `filter` argument's type, reads the filter. */
export function listOptions(args: ListArgs, filterType: GraphQLInputType | undefined): DeepQuery {
  const options: DeepQuery = {};
  if (args.filter != null) {
    const type = filterType;
    if (typeof args.filter !== 'object' || Array.isArray(args.filter) || !isInputObjectType(type)) throw new InvalidQueryError('"filter" must be an object.', { field: 'filter' });
    options.filter = toQueryFilter(args.filter as Record<string, unknown>, type);
  }
  if (args.sort != null) options.sort = args.sort;
  if (args.limit != null) options.limit = args.limit;
  if (args.offset != null) options.offset = args.offset;
  if (args.page != null) options.page = args.page;
  if (args.search != null) options.search = args.search;
  if (args.after != null) options.after = args.after;
  return options;
}

/**
 * The list arguments that mean something for a many-to-one's one item: `filter` and `search` (a related item
 * that fails them reads as null) and `sort` (checked against the schema and MAX_RELATIONAL_DEPTH, then without
 * effect, as REST's deep `_sort` on a many-to-one); `limit`, `offset` and `page` are dropped.
 */
function oneItemOptions(options: DeepQuery): void {
  delete options.limit;
  delete options.offset;
  delete options.page;
}

/** The type of a field's `filter` argument. */
export function filterArgType(field: Pick<GraphQLField<unknown, unknown>, 'args'>): GraphQLInputType | undefined {
  return field.args.find((arg) => arg.name === 'filter')?.type;
}

function fieldNodes(set: SelectionSetNode, info: SelectionInfo, out: FieldNode[] = []): FieldNode[] {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) out.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) fieldNodes(selection.selectionSet, info, out);
    else {
      const fragment = info.fragments[selection.name.value];
      if (fragment) fieldNodes(fragment.selectionSet, info, out);
    }
  }
  return out;
}

/** The parts of a resolver's info a selection is read from (the fast path builds one without graphql-js's executor). */
export type SelectionInfo = Pick<GraphQLResolveInfo, 'fieldNodes' | 'returnType' | 'fragments' | 'variableValues'>;

/** How the schema builder marks a relational GraphQL field: its related collection's primary key. */
export interface RelationalExtension {
  relatedPrimary: string;
  list: boolean;
}

/** How the schema builder marks a many-to-any union field: the junction's collection field and each member type's collection. */
export interface AnyExtension {
  collectionField: string;
  members: Record<string, { collection: string; primary: string }>;
}

/** The selections of a union field that apply to one member type (its inline fragments and fragment spreads). */
function memberSelections(set: SelectionSetNode, typeName: string, info: SelectionInfo): SelectionSetNode {
  const selections: SelectionSetNode['selections'][number][] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) continue;
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    // Nested fragments inside a matching one are flattened by walk's fieldNodes.
    if (fragment && (!fragment.typeCondition || fragment.typeCondition.name.value === typeName)) selections.push(...fragment.selectionSet.selections);
  }
  return { kind: Kind.SELECTION_SET, selections };
}

/** A many-to-any union: its collection field, and per member the `item:<collection>.` paths its fragments ask for. */
function walkAny(node: FieldNode, definition: GraphQLField<unknown, unknown>, any: AnyExtension, info: SelectionInfo, prefix: string, fields: Set<string>): void {
  fields.add(prefix + any.collectionField);
  const union = unwrap(definition.type) as unknown as { getTypes(): Array<{ name: string; getFields(): Record<string, GraphQLField<unknown, unknown>> }> };
  for (const member of union.getTypes()) {
    const target = any.members[member.name];
    if (!target) continue;
    const path = `${prefix}${node.name.value}:${target.collection}.`;
    const before = fields.size;
    if (node.selectionSet) walk(memberSelections(node.selectionSet, member.name, info), member, info, path, fields);
    // Without fields of its own the item is still read (as an object), so __typename can name its type.
    if (fields.size === before) fields.add(path + target.primary);
  }
}

function walk(set: SelectionSetNode, parent: { getFields(): Record<string, GraphQLField<unknown, unknown>> }, info: SelectionInfo, prefix: string, fields: Set<string>): Record<string, DeepQuery> | undefined {
  let deep: Record<string, DeepQuery> | undefined;
  const definitions = parent.getFields();
  for (const node of fieldNodes(set, info)) {
    const name = node.name.value;
    if (name === '__typename') continue;
    const definition = definitions[name];
    if (!definition) continue;
    const functions = definition.extensions?.tesseraFunc as FunctionExtension | undefined;
    if (functions) {
      // `date_func { year }` → `year(date)`, returned as `date_year` (function-fields.ts).
      for (const child of node.selectionSet ? fieldNodes(node.selectionSet, info) : []) {
        if (child.name.value !== '__typename') fields.add(`${prefix}${child.name.value}(${functions.field})`);
      }
      continue;
    }
    const any = definition.extensions?.tesseraAny as AnyExtension | undefined;
    if (any) {
      walkAny(node, definition, any, info, prefix, fields);
      continue;
    }
    const relational = definition.extensions?.tessera as RelationalExtension | undefined;
    if (!relational || !node.selectionSet) {
      fields.add(prefix + name);
      continue;
    }
    const child = unwrap(definition.type);
    const before = fields.size;
    const nested = walk(node.selectionSet, child, info, `${prefix}${name}.`, fields);
    if (fields.size === before) fields.add(`${prefix}${name}.${relational.relatedPrimary}`);
    const options = listOptions(getArgumentValues(definition, node, info.variableValues) as ListArgs, filterArgType(definition));
    if (!relational.list) oneItemOptions(options);
    if (nested) options.deep = nested;
    if (Object.keys(options).length > 0) (deep ??= {})[name] = options;
  }
  return deep;
}

function unwrap(type: unknown): { getFields(): Record<string, GraphQLField<unknown, unknown>> } {
  let current = type as { ofType?: unknown };
  while (current.ofType) current = current.ofType as { ofType?: unknown };
  return current as unknown as { getFields(): Record<string, GraphQLField<unknown, unknown>> };
}

/** The REST `fields` a selection set of `type` asks for (relations as dotted paths), without their arguments. */
export function selectedFields(set: SelectionSetNode, type: unknown, info: SelectionInfo): string[] {
  const fields = new Set<string>();
  walk(set, unwrap(type), info, '', fields);
  return [...fields];
}

/**
 * The Query AST the REST `fields`/`deep` parameters would produce for this resolver's selection, so a GraphQL
 * read takes the same one-statement read path as REST.
 */
export function selectionToQuery(info: SelectionInfo, base: DeepQuery = {}): Query {
  const node = info.fieldNodes[0]!;
  const fields = new Set<string>();
  const deep = node.selectionSet ? walk(node.selectionSet, unwrap(info.returnType), info, '', fields) : undefined;
  const query: Query = { ...base, fields: fields.size > 0 ? [...fields] : ['*'] };
  if (deep) query.deep = deep;
  return query;
}
