import type { SchemaOverview } from '../schema/overview.ts';
import { compileAggregateQuery } from './compile-aggregate.ts';
import { compileReadQuery } from './compile-read.ts';
import { assertRelationalDepth } from './relational-depth.ts';
import type { Query, ReadOptions } from './types.ts';

/**
 * Checks a query against the schema and the caller's policy without running it: every field path, operator,
 * value, function, relation and deep option. Throws InvalidQueryError (400) or ForbiddenError (403).
 */
export function validateQuery(schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): void {
  if (options.maxRelationalDepth !== undefined) assertRelationalDepth(query, options.maxRelationalDepth);
  if (query.aggregate || query.groupBy) compileAggregateQuery(schema, collection, query, options);
  else compileReadQuery(schema, collection, query, options);
}
