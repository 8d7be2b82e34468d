import { sql, type InsertQueryBuilder, type Kysely } from 'kysely';
import type { Accountability } from '../../auth/accountability.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { writeJobs } from '../../events/write-jobs.ts';
import { markPreparable } from '../../database/prepared-statements.ts';

/**
 * Whether a create can be one statement: the collection keeps no concealed values (a revision must mask
 * them, which the general path does in Node).
 */
export function canCreateInOneStatement(collection: CollectionOverview): boolean {
  return !Object.values(collection.fields).some((field) => field.concealed);
}

/**
 * Runs an INSERT together with its activity row and, for `accountability: all`, its revision (the row as
 * inserted, and the delta the caller sent) and its outbox events as ONE statement of CTEs. PostgreSQL runs it
 * atomically on its own, so a flat create needs no BEGIN/COMMIT round trips. Returns the new key and how many
 * outbox events were recorded.
 */
export async function createInOneStatement(
  db: Kysely<any>,
  collection: CollectionOverview,
  insert: InsertQueryBuilder<any, any, any>,
  delta: Record<string, unknown>,
  accountability: Accountability,
  parentRevision: number | null,
): Promise<{ key: string | number; recorded: number }> {
  const name = collection.collection;
  const returning = insert.returning([sql.ref(collection.primary).as('key'), sql`to_jsonb(${sql.table(name)})`.as('data')]);
  const parts = [sql`ins as (${returning})`];
  if (collection.accountability) {
    parts.push(sql`activity as (insert into tessera_activity (action, collection, item, "user", ip, user_agent, origin)
      select 'create', ${name}, ins.key::text, ${accountability.user}::uuid, ${accountability.ip}, ${accountability.userAgent}, ${accountability.origin} from ins
      returning id, item)`);
  }
  if (collection.accountability === 'all') {
    parts.push(sql`revision as (insert into tessera_revisions (activity, collection, item, data, delta, parent)
      select activity.id, ${name}, activity.item, ins.data, ${JSON.stringify(delta)}::jsonb, ${parentRevision}::integer from activity cross join ins)`);
  }
  // The write's events for webhooks and action flows are recorded in the automation outbox by the same statement.
  parts.push(sql`hooks as (${writeJobs(name, 'create', [{ keys: sql`(select jsonb_build_array(key) from ins)`, payload: delta }], accountability)})`);
  const keyType = collection.fields[collection.primary]?.dbType;
  if (!keyType || !Object.hasOwn(KEY_FROM_TEXT, keyType)) {
    const { rows } = await sql<{ key: string | number; recorded: number }>`with ${sql.join(parts)} select key, (select recorded from hooks) as recorded from ins`.execute(db);
    return { key: rows[0]!.key, recorded: Number(rows[0]!.recorded) };
  }
  // A prepared statement: every create of one payload shape has this text (values are parameters), so PostgreSQL
  // plans it once per connection (planning was 0.08 of its 0.25 ms). Its result columns must not change with
  // the table (a prepared statement whose row type changed fails), hence the key as text, typed back below.
  const query = sql<{ key: string; recorded: number }>`with ${sql.join(parts)} select key::text as key, (select recorded from hooks) as recorded from ins`.compile(db);
  markPreparable(query.sql);
  const { rows } = await db.executeQuery(query);
  return { key: KEY_FROM_TEXT[keyType]!(rows[0]!.key), recorded: Number(rows[0]!.recorded) };
}

/** Key column types (information_schema data_type) and their value from its text, as pg parses the column itself. */
const KEY_FROM_TEXT: Readonly<Record<string, (text: string) => string | number>> = {
  integer: Number,
  smallint: Number,
  bigint: String,
  uuid: String,
  'character varying': String,
  text: String,
};
