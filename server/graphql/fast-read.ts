import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  locatedError,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type VariableValues,
} from 'graphql';
import type { TextShape } from '../query/compile-text-shape.ts';
import type { GraphQLContext } from './build-schema.ts';
import { graphqlShape, type LeafExtension } from './json-shape.ts';
import type { ListArgs, SelectionInfo } from './selection-to-query.ts';

/** How the schema builder marks a root list field the fast path may answer: the read its resolver runs. */
export interface RootReadExtension {
  read(context: GraphQLContext, info: SelectionInfo, args: ListArgs): Promise<Record<string, unknown>[]>;
  /** The same read with each item as JSON text PostgreSQL builds in `shape`; null when it cannot. */
  readJson(context: GraphQLContext, info: SelectionInfo, args: ListArgs, shape: TextShape): Promise<string[] | null>;
}

/** One response key of an object: what graphql-js would put there for a row of the compiled read. */
export type Projection =
  | { kind: 'typename'; key: string; value: string }
  | { kind: 'leaf'; key: string; source: string; type: GraphQLLeafType; nonNull: boolean; sourceType: string | undefined }
  | { kind: 'object'; key: string; source: string; nonNull: boolean; list: boolean; itemNonNull: boolean; fields: Projection[] };

type RootPlan = { kind: 'typename'; key: string } | { kind: 'read'; key: string; node: FieldNode; field: GraphQLField<unknown, unknown>; extension: RootReadExtension; fields: Projection[] };

/** The document needs graphql-js: a shape, value or error the fast path does not reproduce exactly. */
class NeedsExecutor extends Error {}

interface Walk {
  fragments: Record<string, FragmentDefinitionNode>;
  variables: VariableValues;
}

function included(node: SelectionNode, walk: Walk): boolean {
  for (const directive of node.directives ?? []) {
    const name = directive.name.value;
    if (name === GraphQLSkipDirective.name) {
      if (getArgumentValues(GraphQLSkipDirective, directive, walk.variables).if === true) return false;
    } else if (name === GraphQLIncludeDirective.name) {
      if (getArgumentValues(GraphQLIncludeDirective, directive, walk.variables).if === false) return false;
    } else {
      throw new NeedsExecutor();
    }
  }
  return true;
}

/** The field nodes of a selection set in graphql-js's order (fragments inlined, @skip/@include applied); a repeated response key needs field merging: executor. */
function collect(set: SelectionSetNode, typeName: string, walk: Walk, out: FieldNode[] = [], keys = new Set<string>()): FieldNode[] {
  for (const selection of set.selections) {
    if (!included(selection, walk)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (keys.has(key)) throw new NeedsExecutor();
      keys.add(key);
      out.push(selection);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments[selection.name.value];
    if (!fragment || (fragment.typeCondition && fragment.typeCondition.name.value !== typeName)) throw new NeedsExecutor();
    collect(fragment.selectionSet, typeName, walk, out, keys);
  }
  return out;
}

function project(set: SelectionSetNode, type: GraphQLObjectType, walk: Walk): Projection[] {
  const definitions = type.getFields();
  return collect(set, type.name, walk).map((node): Projection => {
    const key = node.alias?.value ?? node.name.value;
    const name = node.name.value;
    if (name === '__typename') return { kind: 'typename', key, value: type.name };
    const definition = definitions[name];
    if (!definition || definition.resolve) throw new NeedsExecutor();
    let fieldType: GraphQLOutputType = definition.type;
    const nonNull = isNonNullType(fieldType);
    if (isNonNullType(fieldType)) fieldType = fieldType.ofType;
    const list = isListType(fieldType);
    if (isListType(fieldType)) fieldType = fieldType.ofType;
    const itemNonNull = list && isNonNullType(fieldType);
    const named = getNamedType(fieldType);
    if (isLeafType(named) && !list && !node.selectionSet) {
      const sourceType = (definition.extensions?.tesseraLeaf as LeafExtension | undefined)?.type;
      return { kind: 'leaf', key, source: name, type: named, nonNull, sourceType };
    }
    if (isObjectType(named) && !named.isTypeOf && node.selectionSet && !isListType(isNonNullType(fieldType) ? fieldType.ofType : fieldType)) {
      return { kind: 'object', key, source: name, nonNull, list, itemNonNull, fields: project(node.selectionSet, named, walk) };
    }
    throw new NeedsExecutor();
  });
}

/** A row of the compiled read as graphql-js completes it: same keys, order, scalar coercion, nulls. */
function complete(row: Record<string, unknown>, fields: Projection[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === 'typename') {
      out[field.key] = field.value;
      continue;
    }
    const value = row[field.source];
    if (value == null) {
      if (field.nonNull) throw new NeedsExecutor();
      out[field.key] = null;
    } else if (field.kind === 'leaf') {
      const coerced = field.type.coerceOutputValue(value);
      if (coerced == null) throw new NeedsExecutor();
      out[field.key] = coerced;
    } else if (field.list) {
      if (!Array.isArray(value)) throw new NeedsExecutor();
      out[field.key] = value.map((item: unknown) => {
        if (item == null) {
          if (field.itemNonNull) throw new NeedsExecutor();
          return null;
        }
        return completeObject(item, field.fields);
      });
    } else {
      out[field.key] = completeObject(value, field.fields);
    }
  }
  return out;
}

function completeObject(value: unknown, fields: Projection[]): Record<string, unknown> {
  if (typeof value !== 'object' || Array.isArray(value)) throw new NeedsExecutor();
  return complete(value as Record<string, unknown>, fields);
}

function plan(schema: GraphQLSchema, operation: OperationDefinitionNode, walk: Walk): RootPlan[] {
  const root = schema.getQueryType();
  if (operation.operation !== 'query' || !root) throw new NeedsExecutor();
  const definitions = root.getFields();
  return collect(operation.selectionSet, root.name, walk).map((node): RootPlan => {
    const key = node.alias?.value ?? node.name.value;
    if (node.name.value === '__typename') return { kind: 'typename', key };
    const field = definitions[node.name.value];
    const extension = field?.extensions?.tesseraRead as RootReadExtension | undefined;
    const itemType = field ? getNamedType(field.type) : undefined;
    if (!field || !extension || !isObjectType(itemType) || itemType.isTypeOf || !node.selectionSet) throw new NeedsExecutor();
    return { kind: 'read', key, node, field, extension, fields: project(node.selectionSet, itemType, walk) };
  });
}

/**
 * Plans of operations without variables, which depend on nothing else: the document cache keeps one parsed
 * document per query text and schema. false: the operation needs the executor.
 */
const staticPlans = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, RootPlan[] | false>>();

function planOf(schema: GraphQLSchema, operation: OperationDefinitionNode, walk: Walk): RootPlan[] | null {
  const cacheable = !operation.variableDefinitions || operation.variableDefinitions.length === 0;
  let plans = staticPlans.get(schema);
  if (!plans) staticPlans.set(schema, (plans = new WeakMap()));
  const known = cacheable ? plans.get(operation) : undefined;
  if (known !== undefined) return known || null;
  let roots: RootPlan[] | false;
  try {
    roots = plan(schema, operation, walk);
  } catch (error) {
    if (!(error instanceof NeedsExecutor)) throw error;
    roots = false;
  }
  if (cacheable) plans.set(operation, roots);
  return roots || null;
}

/** What graphql-js's execute takes that the fast path needs too. */
export interface FastReadArgs {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  variableValues?: Record<string, unknown> | null;
  contextValue: GraphQLContext;
}

type ReadPlan = Extract<RootPlan, { kind: 'read' }>;

/** The operation's plan and its coerced variables; null when the document needs graphql-js. */
function prepare(args: FastReadArgs): { roots: RootPlan[]; walk: Walk } | null {
  const coerced = getVariableValues(args.schema, args.operation.variableDefinitions ?? [], args.variableValues ?? {});
  if (coerced.errors) return null;
  const walk: Walk = { fragments: args.fragments, variables: coerced.variableValues };
  const roots = planOf(args.schema, args.operation, walk);
  return roots ? { roots, walk } : null;
}

/**
 * Runs every root read; a rejected one gives graphql-js's answer (null `data`, the error located at its
 * path) when it is the only read, and null (the executor) otherwise.
 */
async function readAll<T>(args: FastReadArgs, reads: ReadPlan[], walk: Walk, readOne: (root: ReadPlan, info: SelectionInfo, listArgs: ListArgs) => Promise<T>): Promise<{ values: T[] } | { failure: ExecutionResult } | null> {
  const rows = await Promise.allSettled(
    reads.map((root) => readOne(root, { fieldNodes: [root.node], returnType: root.field.type, fragments: args.fragments, variableValues: walk.variables }, getArgumentValues(root.field, root.node, walk.variables) as ListArgs)),
  );
  const failed = rows.findIndex((result) => result.status === 'rejected');
  if (failed < 0) return { values: rows.map((result) => (result as PromiseFulfilledResult<T>).value) };
  // One failing root field: graphql-js nulls `data` (the list is non-null) and reports the error at its path.
  if (reads.length !== 1) return null;
  const root = reads[failed]!;
  return { failure: { errors: [locatedError((rows[failed] as PromiseRejectedResult).reason, [root.node], [root.key])], data: null } };
}

/**
 * Answers a query whose root fields are all collection lists and whose selections are plain columns and
 * relations (everything the one compiled SQL read returns), building the response from the rows directly
 * instead of graphql-js's per-field resolve-and-complete walk. Resolves to null when the document needs
 * graphql-js (any other field, merged response keys, a value graphql-js would turn into an error): the
 * caller then runs execute, which gives the same `data` (tests/integration/graphql/graphql-fast-read.test.ts).
 */
export async function fastRead(args: FastReadArgs): Promise<ExecutionResult | null> {
  try {
    const prepared = prepare(args);
    if (!prepared) return null;
    const { roots, walk } = prepared;
    const reads = roots.filter((root) => root.kind === 'read');
    const outcome = await readAll(args, reads, walk, (root, info, listArgs) => root.extension.read(args.contextValue, info, listArgs));
    if (!outcome) return null;
    if ('failure' in outcome) return outcome.failure;
    const data: Record<string, unknown> = {};
    let next = 0;
    for (const root of roots) {
      if (root.kind === 'typename') {
        data[root.key] = args.schema.getQueryType()!.name;
        continue;
      }
      data[root.key] = outcome.values[next++]!.map((item) => {
        if (item == null) throw new NeedsExecutor();
        return completeObject(item, root.fields);
      });
    }
    return { data };
  } catch (error) {
    if (error instanceof NeedsExecutor) return null;
    throw error;
  }
}

/** Each read plan's shape for PostgreSQL (null: its fields need Node), kept as long as the plan is. */
const shapes = new WeakMap<ReadPlan, TextShape | null>();

function shapeOf(root: ReadPlan): TextShape | null {
  let shape = shapes.get(root);
  if (shape === undefined) shapes.set(root, (shape = graphqlShape(root.fields)));
  return shape;
}

/**
 * fastRead with PostgreSQL building each item's GraphQL JSON: resolves to the response body text
 * (`{"data":{…}}`, items passed through unparsed, as REST does), or, when a root field's selection has a
 * value PostgreSQL cannot print exactly as graphql-js does (Float), to fastRead's result; null: the executor.
 */
export async function fastReadJson(args: FastReadArgs): Promise<string | ExecutionResult | null> {
  const prepared = prepare(args);
  if (!prepared) return null;
  const { roots, walk } = prepared;
  const reads = roots.filter((root) => root.kind === 'read');
  if (reads.some((root) => !shapeOf(root))) return fastRead(args);
  const outcome = await readAll(args, reads, walk, (root, info, listArgs) => root.extension.readJson(args.contextValue, info, listArgs, shapeOf(root)!));
  if (!outcome) return null;
  if ('failure' in outcome) return outcome.failure;
  if (outcome.values.some((items) => items === null)) return fastRead(args);
  const parts: string[] = [];
  let next = 0;
  for (const root of roots) {
    const value = root.kind === 'typename' ? JSON.stringify(args.schema.getQueryType()!.name) : `[${outcome.values[next++]!.join(',')}]`;
    parts.push(`${JSON.stringify(root.key)}:${value}`);
  }
  return `{"data":{${parts.join(',')}}}`;
}
