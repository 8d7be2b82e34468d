/**
 * Directus names its system collections `directus_*`, Tessera `tessera_*`. Extensions speak Directus's
 * names; every collection name that crosses the boundary (service constructors, queries, payloads,
 * results, the schema overview) is translated here, both ways.
 */

const DIRECTUS_PREFIX = 'directus_';
const TESSERA_PREFIX = 'tessera_';

/** Tessera's name for a collection an extension names (`directus_users` → `tessera_users`). */
export function toTesseraCollection(name: string): string {
  return name.startsWith(DIRECTUS_PREFIX) ? TESSERA_PREFIX + name.slice(DIRECTUS_PREFIX.length) : name;
}

/** The name an extension sees for a Tessera collection (`tessera_users` → `directus_users`). */
export function toDirectusCollection(name: string): string {
  return name.startsWith(TESSERA_PREFIX) ? DIRECTUS_PREFIX + name.slice(TESSERA_PREFIX.length) : name;
}

/** Fields of system collections whose values are collection names (a csv field holds several). */
const COLLECTION_VALUED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  tessera_activity: ['collection'],
  tessera_revisions: ['collection'],
  tessera_versions: ['collection'],
  tessera_notifications: ['collection'],
  tessera_presets: ['collection'],
  tessera_permissions: ['collection'],
  tessera_shares: ['collection'],
  tessera_webhooks: ['collections'],
  tessera_collections: ['collection', 'group'],
  tessera_fields: ['collection'],
  tessera_relations: ['many_collection', 'one_collection', 'one_allowed_collections'],
};

/** The fields of `collection` (a Tessera name) that hold collection names. */
export function collectionValuedFields(collection: string): readonly string[] {
  return Object.hasOwn(COLLECTION_VALUED_FIELDS, collection) ? COLLECTION_VALUED_FIELDS[collection]! : [];
}

type Rename = (name: string) => string;

/** A collection-name value (a name, a list of names, or a comma-separated list) renamed. */
function renameValue(value: unknown, rename: Rename): unknown {
  if (typeof value === 'string') return value.includes(',') ? value.split(',').map((part) => rename(part.trim())).join(',') : rename(value);
  if (Array.isArray(value)) return value.map((item) => renameValue(item, rename));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `item` with its collection-valued fields renamed; other fields untouched. */
function renameItem(item: unknown, fields: readonly string[], rename: Rename): unknown {
  if (!isPlainObject(item) || fields.length === 0) return item;
  const copy: Record<string, unknown> = { ...item };
  for (const field of fields) if (Object.hasOwn(copy, field)) copy[field] = renameValue(copy[field], rename);
  return copy;
}

/** A payload an extension writes to `collection` (Tessera name), its collection names made Tessera's. */
export function payloadToTessera(collection: string, payload: unknown): unknown {
  return renameItem(payload, collectionValuedFields(collection), toTesseraCollection);
}

/** An item read from `collection` (Tessera name), its collection names made Directus's. */
export function itemToDirectus(collection: string, item: unknown): unknown {
  return renameItem(item, collectionValuedFields(collection), toDirectusCollection);
}

/**
 * A filter on `collection` with the operands of its collection-valued fields made Tessera's
 * (`{ collection: { _eq: 'directus_users' } }`), through `_and`/`_or` groups.
 */
function filterToTessera(filter: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(filter)) return filter.map((item) => filterToTessera(item, fields));
  if (!isPlainObject(filter)) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => {
      if (key === '_and' || key === '_or') return [key, filterToTessera(value, fields)];
      if (fields.includes(key) && isPlainObject(value)) {
        return [key, Object.fromEntries(Object.entries(value).map(([operator, operand]) => [operator, renameValue(operand, toTesseraCollection)]))];
      }
      return [key, value];
    }),
  );
}

/** `item:directus_users.id` (a many-to-any field path) with the collection made Tessera's. */
function fieldToTessera(path: unknown): unknown {
  return typeof path === 'string' ? path.replace(/:directus_/g, `:${TESSERA_PREFIX}`) : path;
}

/** A Directus query on `collection` (Tessera name) with collection names made Tessera's. */
export function queryToTessera(collection: string, query: unknown): Record<string, unknown> {
  if (!isPlainObject(query)) return {};
  const copy: Record<string, unknown> = { ...query };
  if (copy.filter !== undefined) copy.filter = filterToTessera(copy.filter, collectionValuedFields(collection));
  if (Array.isArray(copy.fields)) copy.fields = copy.fields.map(fieldToTessera);
  else if (typeof copy.fields === 'string') copy.fields = copy.fields.split(',').map(fieldToTessera);
  return copy;
}
