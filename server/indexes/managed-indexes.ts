import { sql, type Kysely, type RawBuilder } from 'kysely';
import { InvalidPayloadError } from '../errors.ts';
import { columnIndexName, compositeIndexName, trigramIndexName } from './index-names.ts';

/** One index as pg_index describes it. */
export interface IndexFacts {
  name: string;
  table: string;
  /** Key columns in order (expression parts are left out, see `expression`). */
  columns: string[];
  method: string;
  unique: boolean;
  primary: boolean;
  valid: boolean;
  /** True for a partial or expression index: it serves only some reads of its columns. */
  expression: boolean;
  /** Operator classes of the key columns (`gin_trgm_ops` for a trigram index). */
  opclasses: string[];
}

/** What to build: a btree on one or more columns, or a trigram GIN on one text column. */
export interface IndexSpec {
  table: string;
  columns: string[];
  kind: 'btree' | 'trigram';
}

/** The name Tessera gives an index of this spec. */
export function indexNameOf(spec: IndexSpec): string {
  if (spec.kind === 'trigram') return trigramIndexName(spec.table, spec.columns[0]!);
  return spec.columns.length === 1 ? columnIndexName(spec.table, spec.columns[0]!) : compositeIndexName(spec.table, spec.columns);
}

/** Every index of the current schema's tables (or of one table). */
export async function readIndexes(db: Kysely<any>, table?: string): Promise<IndexFacts[]> {
  const { rows } = await sql<IndexFacts>`
    select ic.relname as name, cl.relname as "table", am.amname as method, i.indisunique as unique, i.indisprimary as primary,
           i.indisvalid as valid, (i.indpred is not null or i.indexprs is not null) as expression,
           array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n)
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n) as columns,
           array(select oc.opcname::text from unnest(i.indclass) with ordinality c(oid, n)
                   join pg_opclass oc on oc.oid = c.oid order by c.n) as opclasses
      from pg_index i
      join pg_class cl on cl.oid = i.indrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class ic on ic.oid = i.indexrelid
      join pg_am am on am.oid = ic.relam
     where n.nspname = current_schema() and (${table ?? null}::text is null or cl.relname = ${table ?? null})`.execute(db);
  return rows;
}

/** True for the kind of index `is_indexed` reports: a valid, plain, non-unique btree on exactly this column. */
export function isColumnIndex(index: IndexFacts, column: string): boolean {
  return index.valid && !index.unique && !index.expression && index.method === 'btree' && index.columns.length === 1 && index.columns[0] === column;
}

/** True when an existing valid index serves `spec` (a btree whose leading columns are the spec's). */
export function servedBy(indexes: readonly IndexFacts[], spec: IndexSpec): IndexFacts | undefined {
  return indexes.find((index) => {
    if (!index.valid || index.expression || index.table !== spec.table) return false;
    if (spec.kind === 'trigram') return index.method === 'gin' && index.columns[0] === spec.columns[0] && index.opclasses[0] === 'gin_trgm_ops';
    return index.method === 'btree' && spec.columns.every((column, position) => index.columns[position] === column);
  });
}

function createStatement(spec: IndexSpec, concurrently: boolean): RawBuilder<unknown> {
  const name = sql.id(indexNameOf(spec));
  const how = concurrently ? sql`concurrently` : sql``;
  const columns = sql.join(spec.columns.map((column) => sql.id(column)));
  if (spec.kind === 'trigram') return sql`create index ${how} if not exists ${name} on ${sql.id(spec.table)} using gin (${sql.id(spec.columns[0]!)} gin_trgm_ops)`;
  return sql`create index ${how} if not exists ${name} on ${sql.id(spec.table)} (${columns})`;
}

/**
 * Makes pg_trgm available. It needs CREATE on the database (or a trusted extension, which pg_trgm is
 * since PostgreSQL 13); a role without it gets a 400 saying so, not a 500.
 */
export async function ensureTrigramExtension(db: Kysely<any>): Promise<void> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch (error) {
    throw new InvalidPayloadError(`The pg_trgm extension is not available to this database role: ${(error as Error).message}`, { field: 'kind' });
  }
}

/** A failed build as a 400 naming the field, with PostgreSQL's reason. */
function buildError(spec: IndexSpec, error: unknown): InvalidPayloadError {
  return new InvalidPayloadError(`Could not build the index on "${spec.table}" (${spec.columns.join(', ')}): ${(error as Error).message}`, { field: spec.columns[0]! });
}

/**
 * Builds an index inside the caller's transaction (snapshot apply, PATCH of several fields): it holds a
 * SHARE lock on the table until the transaction ends, so writes wait, but it commits or rolls back with
 * the rest of the change.
 */
export async function createIndexInTransaction(trx: Kysely<any>, spec: IndexSpec): Promise<void> {
  if (spec.kind === 'trigram') await ensureTrigramExtension(trx);
  try {
    await createStatement(spec, false).execute(trx);
  } catch (error) {
    throw buildError(spec, error);
  }
}

/**
 * Builds an index with CREATE INDEX CONCURRENTLY on one pooled connection, outside any transaction:
 * writes to the table go on while it builds. statement_timeout is lifted for the build (a large table
 * takes longer than a request may) and reset after. A failed concurrent build leaves an INVALID index
 * behind that still slows every write: it is dropped before the error is reported.
 */
export async function createIndexConcurrently(db: Kysely<any>, spec: IndexSpec): Promise<string> {
  if (db.isTransaction) throw new Error('createIndexConcurrently needs a handle outside any transaction.');
  if (spec.kind === 'trigram') await ensureTrigramExtension(db);
  const name = indexNameOf(spec);
  await db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      // A leftover INVALID index of an earlier failed build would make IF NOT EXISTS skip the build.
      await dropInvalid(connection, name);
      await createStatement(spec, true).execute(connection);
    } catch (error) {
      await dropInvalid(connection, name);
      throw buildError(spec, error);
    } finally {
      await sql`reset statement_timeout`.execute(connection);
    }
  });
  return name;
}

async function dropInvalid(db: Kysely<any>, name: string): Promise<void> {
  const { rows } = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_index i join pg_class ic on ic.oid = i.indexrelid
      join pg_namespace n on n.oid = ic.relnamespace
     where n.nspname = current_schema() and ic.relname = ${name}`.execute(db);
  if (rows[0] && !rows[0].valid) await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
}

/** The indexes that make `is_indexed` true for a column: each is dropped when it is set to false. */
async function columnIndexNames(db: Kysely<any>, table: string, column: string): Promise<string[]> {
  return (await readIndexes(db, table)).filter((index) => isColumnIndex(index, column)).map((index) => index.name);
}

/** Sets `is_indexed` of a column inside the caller's transaction. */
export async function setColumnIndexedInTransaction(trx: Kysely<any>, table: string, column: string, indexed: boolean): Promise<void> {
  if (indexed) return createIndexInTransaction(trx, { table, columns: [column], kind: 'btree' });
  for (const name of await columnIndexNames(trx, table, column)) await sql`drop index if exists ${sql.id(name)}`.execute(trx);
}

/** Sets `is_indexed` of a column with CREATE / DROP INDEX CONCURRENTLY (writes are never blocked). */
export async function setColumnIndexedConcurrently(db: Kysely<any>, table: string, column: string, indexed: boolean): Promise<void> {
  if (indexed) {
    await createIndexConcurrently(db, { table, columns: [column], kind: 'btree' });
    return;
  }
  for (const name of await columnIndexNames(db, table, column)) {
    await db.connection().execute(async (connection) => {
      await sql`set statement_timeout = 0`.execute(connection);
      try {
        await sql`drop index concurrently if exists ${sql.id(name)}`.execute(connection);
      } finally {
        await sql`reset statement_timeout`.execute(connection);
      }
    });
  }
}
