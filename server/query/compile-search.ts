import { sql } from 'kysely';
import { isBigInteger, isUuid, NUMERIC_TYPES, TEXT_TYPES, toNumber } from './cast-value.ts';
import { column, or, type CompileContext, type Scope, type Sql } from './context.ts';
import { escapeLike } from './compile-operator.ts';
import { InvalidQueryError } from '../errors.ts';
import { canReadField, isConcealed } from './policy.ts';

function numericMatch(type: string, term: string): string | number | null {
  const number = toNumber(term);
  if (number === null) return null;
  if (type === 'integer') return Number.isInteger(number) && Math.abs(number) <= 2_147_483_647 ? number : null;
  if (type === 'bigInteger') return isBigInteger(term.trim()) ? term.trim() : null;
  return term.trim();
}

/**
 * `?search=`: any searchable text field contains the term (case-insensitive), a numeric field equals it
 * when it is a number, a uuid field equals it when it is a UUID. Fields the caller may not read, and
 * concealed fields, are skipped; with nothing left to search, nothing matches.
 */
export function compileSearch(ctx: CompileContext, scope: Scope, term: string): Sql {
  // Checked here, where every search (URL, GraphQL argument, deep `_search`, panel) arrives: PostgreSQL text
  // cannot hold NUL.
  if (term.includes('\u0000')) throw new InvalidQueryError('search cannot contain NUL characters.', { field: 'search' });
  const parts: Sql[] = [];
  for (const field of Object.values(scope.collection.fields)) {
    if (field.alias || isConcealed(field) || !canReadField(ctx, scope.collection.collection, field.field)) continue;
    const ref = column(scope, field.field);
    if (field.type === 'uuid') {
      if (isUuid(term.trim())) parts.push(sql`${ref} = ${term.trim()}`);
    } else if (NUMERIC_TYPES.has(field.type)) {
      const value = numericMatch(field.type, term);
      if (value !== null) parts.push(sql`${ref} = ${value}`);
    } else if (field.searchable && TEXT_TYPES.has(field.type)) {
      parts.push(sql`${ref} ilike ${`%${escapeLike(term)}%`}`);
    }
  }
  return or(parts);
}
