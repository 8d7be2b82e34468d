import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { FieldType } from '../schema/types.ts';
import { FIELD_FUNCTIONS, MAX_RELATIONAL_DEPTH, type FieldFunction } from './constants.ts';
import { RELATIONAL_DEPTH_MESSAGE } from './relational-depth.ts';
import { and, column, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { policyCondition } from './compile-filter.ts';
import type { Target } from './compile-operator.ts';
import { assertNotConcealed, fieldFor, type FieldUse } from './policy.ts';
import { findRelation, type OneToMany } from './schema-lookup.ts';

/** A function applied to a field: `year(date)`, `count(comments)`. */
export interface FunctionCall {
  fn: FieldFunction;
  field: string;
}

const CALL = /^([A-Za-z]+)\(([^()]*)\)$/;
const DATE_PARTS: Record<Exclude<FieldFunction, 'count'>, string> = {
  year: 'year',
  month: 'month',
  week: 'week',
  day: 'day',
  weekday: 'dow',
  hour: 'hour',
  minute: 'minute',
  second: 'second',
  isoyear: 'isoyear',
};
const CLOCK: ReadonlySet<FieldFunction> = new Set(['hour', 'minute', 'second']);
const DATE_TYPES: ReadonlySet<FieldType> = new Set(['date', 'dateTime', 'timestamp']);
const CLOCK_TYPES: ReadonlySet<FieldType> = new Set(['dateTime', 'timestamp', 'time']);

/** Parses `fn(field)`; null when the text is not a call; InvalidQueryError for unknown functions. */
export function parseFunctionCall(text: string): FunctionCall | null {
  const match = CALL.exec(text);
  if (!match) {
    if (text.includes('(') || text.includes(')')) throw new InvalidQueryError(`"${text}" is not a valid function call, e.g. year(date).`);
    return null;
  }
  const [, fn = '', field = ''] = match;
  if (!(FIELD_FUNCTIONS as readonly string[]).includes(fn)) {
    throw new InvalidQueryError(`Unknown function "${fn}" in "${text}"; use one of ${FIELD_FUNCTIONS.join(', ')}.`);
  }
  if (!field) throw new InvalidQueryError(`Function "${text}" needs a field, e.g. ${fn}(date).`);
  return { fn: fn as FieldFunction, field };
}

/** The output key of a function, as Directus names it: `year(date)` → `date_year`. */
export function functionKey(call: FunctionCall): string {
  return `${call.field}_${call.fn}`;
}

/** Refuses a relation deeper than MAX_RELATIONAL_DEPTH (the compiler's own ceiling), in Directus's words; `field` names the path. */
export function assertDepth(depth: number, path: string): void {
  if (depth > MAX_RELATIONAL_DEPTH) {
    throw new InvalidQueryError(RELATIONAL_DEPTH_MESSAGE, { field: path });
  }
}

/** `count(o2m)`: how many related items the caller may see. */
function countRelated(ctx: CompileContext, scope: Scope, relation: OneToMany, mode: FieldUse): Sql {
  assertDepth(scope.depth + 1, relation.relation.meta.oneField ?? relation.foreignKey);
  const inner = selectScope(ctx, relation.related, scope.depth + 1);
  const conditions = [sql`${column(inner, relation.foreignKey)} = ${column(scope, scope.collection.primary)}`];
  const policy = mode.trusted ? null : policyCondition(ctx, inner);
  if (policy) conditions.push(policy);
  return sql`(select count(*)::integer from ${renderFrom(inner.from)} where ${and(conditions)})`;
}

/** A function call on a field of the scope as an integer expression. */
export function compileFunction(ctx: CompileContext, scope: Scope, call: FunctionCall, mode: FieldUse): Target {
  const field = fieldFor(ctx, scope.collection, call.field, mode);
  const label = `${call.fn}(${call.field})`;
  if (call.fn === 'count') {
    const relation = findRelation(ctx.schema, scope.collection.collection, call.field);
    if (relation?.type === 'o2m') return { sql: countRelated(ctx, scope, relation, mode), type: 'integer', label };
    if (field.type === 'json') {
      if (!mode.trusted) assertNotConcealed(field, scope.collection, mode.usage);
      // Directus counts a JSON array's elements; anything else in the field has no count (null), not an error.
      const value = sql`${column(scope, call.field)}::jsonb`;
      return { sql: sql`(case when jsonb_typeof(${value}) = 'array' then jsonb_array_length(${value}) end)`, type: 'integer', label };
    }
    throw new InvalidQueryError(`count() needs a one-to-many, many-to-many or json field; "${call.field}" is not one.`, { field: call.field });
  }
  if (!mode.trusted) assertNotConcealed(field, scope.collection, mode.usage);
  const types = CLOCK.has(call.fn) ? CLOCK_TYPES : DATE_TYPES;
  if (!types.has(field.type)) {
    throw new InvalidQueryError(`${call.fn}() cannot be applied to ${field.type} field "${call.field}".`, { field: call.field });
  }
  // Timestamps are returned in UTC (output-value.ts), so their parts are taken in UTC too, whatever the session
  // time zone, unless the read names a time zone (Insights buckets). The zone is a literal, not a parameter: the
  // same expression appears in SELECT and GROUP BY, and PostgreSQL only matches them when they are identical.
  const zoned = field.type === 'timestamp' && field.dbType !== 'timestamp without time zone';
  const value = zoned ? sql`(${column(scope, call.field)} at time zone ${sql.lit(ctx.timeZone)})` : column(scope, call.field);
  // date_part (double precision) rather than extract (numeric since PostgreSQL 14): the same parts, and about a
  // third cheaper per row, which counts when a time series groups every row by two to four of them.
  return { sql: sql`floor(date_part(${sql.lit(DATE_PARTS[call.fn])}, ${value}))::integer`, type: 'integer', label };
}
