import { sql, type Kysely } from 'kysely';
import { MAX_RELATIONAL_DEPTH } from '../query/constants.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { PermissionSet } from './types.ts';
import { permissionKey } from './types.ts';

type Key = string | number;

/** The items a share session may read, by collection. */
export type ShareReach = ReadonlyMap<string, readonly Key[]>;

/** Upper bound on the items one share reaches; past it the rest stays unreadable (never more than this). */
export const MAX_SHARE_REACH = 5000;

interface Step {
  collection: string;
  keys: Key[];
}

/**
 * The shared item and every item a read of it can reach through relations (m2o, o2m, m2m through its
 * junction, m2a), as deep as a query may nest, following only collections and relational fields the
 * share's role may read. A share session reads these items and nothing else.
 */
export async function shareReach(db: Kysely<any>, schema: SchemaOverview, permissions: PermissionSet, collection: string, item: string): Promise<ShareReach> {
  const reach = new Map<string, Map<string, Key>>();
  let total = 0;
  const add = (target: string, keys: Key[]): Key[] => {
    const known = reach.get(target) ?? new Map<string, Key>();
    reach.set(target, known);
    const added: Key[] = [];
    for (const key of keys) {
      if (total >= MAX_SHARE_REACH || known.has(String(key))) continue;
      known.set(String(key), key);
      added.push(key);
      total++;
    }
    return added;
  };
  const readable = (name: string) => permissions.get(permissionKey(name, 'read')) ?? null;
  let frontier: Step[] = readable(collection) ? [{ collection, keys: add(collection, [item]) }] : [];
  for (let depth = 0; depth < MAX_RELATIONAL_DEPTH && frontier.length > 0 && total < MAX_SHARE_REACH; depth++) {
    const next: Step[] = [];
    for (const step of frontier) {
      for (const found of await relatedKeys(db, schema, step, readable)) {
        const added = add(found.collection, found.keys);
        if (added.length > 0) next.push({ collection: found.collection, keys: added });
      }
    }
    frontier = next;
  }
  return new Map([...reach].map(([name, keys]) => [name, [...keys.values()]]));
}

/** Keys one relational step away from `step`'s items, through the fields the role may read. */
async function relatedKeys(db: Kysely<any>, schema: SchemaOverview, step: Step, readable: (collection: string) => { fields: '*' | ReadonlySet<string> } | null): Promise<Step[]> {
  const overview = schema.collections[step.collection];
  const permission = readable(step.collection);
  if (!overview?.table || !permission || step.keys.length === 0) return [];
  const mayRead = (field: string) => permission.fields === '*' || permission.fields.has(field);
  const keys = step.keys.map(String);
  const found: Step[] = [];
  for (const relation of schema.relations) {
    if (relation.collection === step.collection && mayRead(relation.field)) {
      if (relation.relatedCollection !== null) {
        // m2o: the related item this one points at.
        if (!readable(relation.relatedCollection)) continue;
        const rows = await db
          .selectFrom(step.collection)
          .select(sql.ref(relation.field).as('key'))
          .where(sql`${sql.ref(overview.primary)}::text`, 'in', keys)
          .where(sql.ref(relation.field), 'is not', null)
          .execute();
        found.push({ collection: relation.relatedCollection, keys: rows.map((row) => row.key as Key) });
      } else if (relation.meta.oneCollectionField) {
        // m2a: the item and the collection it lives in are two columns.
        const rows = await db
          .selectFrom(step.collection)
          .select([sql.ref(relation.field).as('key'), sql.ref(relation.meta.oneCollectionField).as('collection')])
          .where(sql`${sql.ref(overview.primary)}::text`, 'in', keys)
          .where(sql.ref(relation.field), 'is not', null)
          .execute();
        for (const row of rows) {
          const target = row.collection as string;
          if ((relation.meta.oneAllowedCollections ?? []).includes(target) && readable(target)) found.push({ collection: target, keys: [row.key as Key] });
        }
      }
    }
    if (relation.relatedCollection === step.collection && relation.meta.oneField && mayRead(relation.meta.oneField)) {
      // o2m (and the first half of m2m): the items pointing at this one.
      const child = schema.collections[relation.collection];
      if (!child?.table || !readable(relation.collection)) continue;
      const rows = await db
        .selectFrom(relation.collection)
        .select(sql.ref(child.primary).as('key'))
        .where(sql`${sql.ref(relation.field)}::text`, 'in', keys)
        .limit(MAX_SHARE_REACH)
        .execute();
      found.push({ collection: relation.collection, keys: rows.map((row) => row.key as Key) });
    }
  }
  return found;
}
