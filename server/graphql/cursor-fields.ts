import { getArgumentValues, GraphQLString, Kind, type FieldNode, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { ReadResult } from '../query/types.ts';
import type { GraphQLContext } from './build-schema.ts';
import type { ListArgs } from './selection-to-query.ts';

/**
 * Keyset cursors in GraphQL (docs/graphql.md "Cursors"): lists take `after`, and `<collection>_next_cursor`,
 * given the list's arguments, answers the `after` of the page after that list. A list and its cursor field
 * with the same arguments in one operation share one statement, so the cursor always continues the page the
 * list returned, even while items are written.
 */

/** The argument a list (root or one-to-many) takes to start after a cursor's item. */
export const CURSOR_ARGS: GraphQLFieldConfigArgumentMap = { after: { type: GraphQLString } };

/** The root field answering a collection list's next cursor. */
export function nextCursorName(gql: string): string {
  return `${gql}_next_cursor`;
}

interface SharedCursor {
  promise: Promise<string | null>;
  resolve(cursor: string | null): void;
  reject(error: unknown): void;
}

/**
 * The cursors lists publish for their cursor fields, per execution: graphql-js makes one coerced-variables
 * object per execution and gives it to every resolver, so a cursor never crosses into another operation.
 */
const published = new WeakMap<object, Map<string, SharedCursor>>();

function sharedCursor(info: GraphQLResolveInfo, key: string): SharedCursor {
  let byKey = published.get(info.variableValues);
  if (!byKey) published.set(info.variableValues, (byKey = new Map()));
  let shared = byKey.get(key);
  if (!shared) {
    let settle!: Pick<SharedCursor, 'resolve' | 'reject'>;
    const promise = new Promise<string | null>((resolve, reject) => (settle = { resolve, reject }));
    // A list may publish for a cursor field that never runs (@skip): its failure must not go unhandled.
    promise.catch(() => undefined);
    byKey.set(key, (shared = { promise, ...settle }));
  }
  return shared;
}

/** The operation's root fields, fragments flattened; `direct`: only fields written at the root without directives. */
function rootFields(info: GraphQLResolveInfo, direct: boolean): FieldNode[] {
  const out: FieldNode[] = [];
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!direct || !selection.directives?.length) out.push(selection);
      } else if (!direct) {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(info.operation.selectionSet);
  return out;
}

/** The root fields named `name` whose arguments equal `args` (same definitions, so the same key order). */
function sameArguments(info: GraphQLResolveInfo, name: string, args: ListArgs, direct: boolean): boolean {
  const definition = info.parentType.getFields()[name];
  if (!definition) return false;
  const key = JSON.stringify(args);
  return rootFields(info, direct).some((node) => node.name.value === name && JSON.stringify(getArgumentValues(definition, node, info.variableValues)) === key);
}

/**
 * A root list's items. When the operation also asks `<collection>_next_cursor` with the same arguments, the
 * read asks for its next cursor too and publishes it for that field.
 */
export async function readListWithCursor(info: GraphQLResolveInfo, args: ListArgs, read: (nextCursor: boolean) => Promise<ReadResult>): Promise<Record<string, unknown>[]> {
  // Any cursor field counts here, directives or fragments around it: publishing one it never reads costs one row.
  if (!sameArguments(info, nextCursorName(info.fieldName), args, false)) return (await read(false)).data;
  const shared = sharedCursor(info, `${info.fieldName}\n${JSON.stringify(args)}`);
  try {
    const result = await read(true);
    shared.resolve(result.meta?.next_cursor ?? null);
    return result.data;
  } catch (error) {
    shared.reject(error);
    throw error;
  }
}

/**
 * `<collection>_next_cursor(sort, filter, limit, after …): String`: the `after` of the page after the list
 * these arguments select, null when that list is the last page. Beside that list in one operation it is
 * the list's own cursor; alone, it reads the page's keys with the caller's permissions (`read`).
 */
export function nextCursorField(gql: string, args: GraphQLFieldConfigArgumentMap, read: (context: GraphQLContext, args: ListArgs) => Promise<ReadResult>): GraphQLFieldConfig<unknown, GraphQLContext> {
  return {
    type: GraphQLString,
    args,
    resolve: async (_root, listArgs: ListArgs, context, info) => {
      // Only a list that surely runs (written at the root, no @skip/@include) is waited for.
      if (sameArguments(info, gql, listArgs, true)) return sharedCursor(info, `${gql}\n${JSON.stringify(listArgs)}`).promise;
      return (await read(context, listArgs)).meta?.next_cursor ?? null;
    },
  };
}
