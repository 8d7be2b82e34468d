import { sql } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { compileFilter } from './compile-filter.ts';
import { column, createContext, renderFrom, selectScope, type Sql } from './context.ts';
import { findCollection } from './schema-lookup.ts';
import type { Filter } from './types.ts';

/**
 * `select <key> from <collection> where <rule>`: the keys a permission rule reaches, as a subquery for the
 * WHERE of an UPDATE or DELETE, so the rule is applied by the same statement that writes (relational rules
 * included) and a batch touching any other item changes nothing.
 */
export function compilePermittedKeys(schema: SchemaOverview, collectionName: string, rule: Filter, accountability: Accountability): Sql {
  const ctx = createContext(schema, { accountability });
  const collection = findCollection(schema, collectionName)!;
  const scope = selectScope(ctx, collection, 0);
  const condition = compileFilter(ctx, scope, rule, { trusted: true, usage: `the permissions of "${collectionName}"` });
  return sql`select ${column(scope, collection.primary)} from ${renderFrom(scope.from)} where ${condition}`;
}
