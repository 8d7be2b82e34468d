import type { RelationOverview, SchemaOverview } from '../../schema/overview.ts';

const LISTS = new WeakMap<SchemaOverview, WeakMap<object, Map<string, readonly unknown[]>>>();

/**
 * A list derived from one schema overview for one visibility (`key`: the administrators' key or a role's
 * permission set, see SchemaVisibility), built on first ask and kept with that overview: every overview
 * version is a new object, so a schema or permission change builds anew and the old lists are collected.
 * Without a key (share sessions) nothing is kept. The list is frozen: callers share it.
 */
export function listPerSchema<T>(schema: SchemaOverview, key: object | null, name: string, build: () => T[]): readonly T[] {
  if (!key) return build();
  let byKey = LISTS.get(schema);
  if (!byKey) LISTS.set(schema, (byKey = new WeakMap()));
  let lists = byKey.get(key);
  if (!lists) byKey.set(key, (lists = new Map()));
  let list = lists.get(name) as readonly T[] | undefined;
  if (!list) lists.set(name, (list = Object.freeze(build())));
  return list;
}

const FOREIGN_KEYS = new WeakMap<SchemaOverview, Map<string, RelationOverview>>();

/** The relation with a foreign key stored on `collection.field`, looked up in an index built once per overview. */
export function foreignKeyRelation(schema: SchemaOverview, collection: string, field: string): RelationOverview | undefined {
  let index = FOREIGN_KEYS.get(schema);
  if (!index) {
    index = new Map();
    for (const relation of schema.relations) {
      const key = `${relation.collection}\u0000${relation.field}`;
      // The first one wins, as a search of the list in order would find it.
      if (relation.schema && !index.has(key)) index.set(key, relation);
    }
    FOREIGN_KEYS.set(schema, index);
  }
  return index.get(`${collection}\u0000${field}`);
}
