import { answerDependsOnCaller, answerDependsOnClock } from '../cache/answer-dependence.ts';
import { sql } from 'kysely';
import { ForbiddenError, InvalidQueryError } from '../errors.ts';
import type { FieldType } from '../schema/types.ts';
import { isStorableDate } from './cast-value.ts';
import { nextAlias, type CompileContext, type Sql } from './context.ts';
import { isConcealed } from './policy.ts';
import { findCollection, findField } from './schema-lookup.ts';

/** A filter operand once dynamic variables are resolved: a plain value, or SQL (a subquery). */
export type Operand = { kind: 'value'; value: unknown } | { kind: 'sql'; sql: Sql };

const NOW_OFFSET = /^\$NOW\(\s*([+-]?)\s*(\d+)\s*(year|month|week|day|hour|minute|second)s?\s*\)$/i;
const RECORD_FIELD = /^\$CURRENT_(USER|ROLE)\.(.+)$/;
/** A variable with nothing to resolve to (no user, no role): SQL NULL, so comparisons match no row. */
const MISSING: Operand = { kind: 'sql', sql: sql`null` };
const UNIT_MS = { week: 604_800_000, day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1_000 } as const;

/** `now` moved by `amount` units; months and years move the calendar, the rest move the clock. */
export function shiftDate(now: Date, amount: number, unit: string): Date {
  const date = new Date(now.getTime());
  if (unit === 'year') date.setUTCFullYear(date.getUTCFullYear() + amount);
  else if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount);
  else date.setTime(date.getTime() + amount * UNIT_MS[unit as keyof typeof UNIT_MS]);
  return date;
}

/** Field types whose values PostgreSQL compares with each other without a cast. */
const COMPARABLE: ReadonlyArray<ReadonlySet<FieldType>> = [
  new Set(['string', 'text', 'csv', 'hash']),
  new Set(['integer', 'bigInteger', 'float', 'decimal']),
  new Set(['date', 'dateTime', 'timestamp']),
  new Set(['time']),
  new Set(['uuid']),
  new Set(['boolean']),
];

function comparable(a: FieldType, b: FieldType): boolean {
  return COMPARABLE.some((group) => group.has(a) && group.has(b));
}

function currentRecordField(ctx: CompileContext, kind: 'USER' | 'ROLE', name: string, label: string, type: FieldType | undefined): Operand {
  const id = kind === 'USER' ? ctx.accountability?.user : ctx.accountability?.role;
  const collection = findCollection(ctx.schema, kind === 'USER' ? 'tessera_users' : 'tessera_roles');
  const field = collection ? findField(collection, name) : undefined;
  if (!collection || !field || field.alias) {
    throw new InvalidQueryError(`Unknown field "${name}" in $CURRENT_${kind}.${name} (filter on "${label}").`, { field: label });
  }
  if (isConcealed(field)) throw new ForbiddenError(`$CURRENT_${kind}.${name} is concealed and cannot be used in a filter.`, { field: label });
  // The subquery's type is the record field's: comparing it with another type fails in PostgreSQL.
  if (type !== undefined && !comparable(field.type, type)) {
    throw new InvalidQueryError(`$CURRENT_${kind}.${name} is a ${field.type} and cannot be compared with ${type} field "${label}".`, { field: label });
  }
  if (id === null || id === undefined) return MISSING;
  const alias = nextAlias(ctx);
  return {
    kind: 'sql',
    sql: sql`(select ${sql.id(alias, name)} from ${sql.id(collection.collection)} as ${sql.id(alias)} where ${sql.id(alias, collection.primary)} = ${id})`,
  };
}

/**
 * Resolves `$CURRENT_USER`, `$CURRENT_USER.<field>` (a subquery on tessera_users), `$CURRENT_ROLE[.<field>]`,
 * `$NOW` and `$NOW(±n unit)`; any other value is returned as is. Without a user (or role) the variables are
 * SQL NULL, never a literal null: `{ owner: { _eq: '$CURRENT_USER' } }` must not match rows without an owner.
 */
export function resolveOperand(ctx: CompileContext, raw: unknown, label: string, type?: FieldType): Operand {
  if (typeof raw !== 'string' || !raw.startsWith('$')) return { kind: 'value', value: raw };
  // The response cache keys an answer by user only when a value of the caller's own reached its statement
  // (a permission rule's or the query's), and keeps none that read the clock.
  if (raw.startsWith('$CURRENT_USER')) answerDependsOnCaller();
  if (raw.startsWith('$NOW')) answerDependsOnClock();
  if (raw === '$CURRENT_USER') return ctx.accountability?.user ? { kind: 'value', value: ctx.accountability.user } : MISSING;
  if (raw === '$CURRENT_ROLE') return ctx.accountability?.role ? { kind: 'value', value: ctx.accountability.role } : MISSING;
  if (raw === '$NOW') return { kind: 'value', value: new Date(ctx.now.getTime()) };
  if (raw.startsWith('$NOW(')) {
    const match = NOW_OFFSET.exec(raw);
    if (!match) {
      throw new InvalidQueryError(`Invalid ${raw} on field "${label}": expected $NOW(±<number> <unit>), e.g. $NOW(-1 day).`, { field: label });
    }
    const amount = Number(match[2]) * (match[1] === '-' ? -1 : 1);
    const date = shiftDate(ctx.now, amount, (match[3] as string).toLowerCase());
    if (!isStorableDate(date)) throw new InvalidQueryError(`${raw} on field "${label}" falls outside the years 1 to 9999.`, { field: label });
    return { kind: 'value', value: date };
  }
  const record = RECORD_FIELD.exec(raw);
  if (record) return currentRecordField(ctx, record[1] as 'USER' | 'ROLE', record[2] as string, label, type);
  return { kind: 'value', value: raw };
}
