import { InvalidPayloadError } from '../errors.ts';
import { SNAPSHOT_VERSION } from './types.ts';

type Raw = Record<string, any>;

const pick = (value: Raw | null | undefined, keys: readonly string[]): Raw | null =>
  value ? Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) : null;
const omit = (value: Raw | null | undefined, keys: readonly string[]): Raw | null =>
  value ? Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key))) : null;

const COLUMN_KEYS = ['default_value', 'is_nullable', 'is_unique', 'is_primary_key', 'has_auto_increment', 'max_length', 'numeric_precision', 'numeric_scale'] as const;

/**
 * Version 1: the schema-only format (collections, fields and relations as the /collections, /fields and
 * /relations endpoints return them, the shape Directus snapshots also use). Version 2 keeps only the
 * settings one can choose (no ids, no database-reported facts such as data_type or constraint names)
 * and adds the configuration sections; a v1 document manages none of them.
 */
function fromVersion1(document: Raw): Raw {
  const { directus: directusVersion, tessera: _version, ...rest } = document;
  // A Directus snapshot names system collections directus_*; Tessera's are the same collections as tessera_*.
  const system = (name: unknown) => (directusVersion !== undefined && typeof name === 'string' && name.startsWith('directus_') ? `tessera_${name.slice('directus_'.length)}` : name);
  return {
    ...rest,
    version: 2,
    collections: (document.collections ?? []).map((collection: Raw) => ({
      collection: collection.collection,
      meta: omit(collection.meta, ['collection', 'system']),
      schema: collection.schema ? { name: collection.collection } : null,
    })),
    fields: (document.fields ?? []).map((field: Raw) => ({
      collection: field.collection,
      field: field.field,
      type: field.type,
      meta: omit(field.meta, ['id', 'collection', 'field', 'system']),
      schema: field.type === 'alias' ? null : withoutGeneratedDefault(pick(field.schema, COLUMN_KEYS)),
    })),
    relations: (document.relations ?? []).map((relation: Raw) => ({
      collection: relation.collection,
      field: relation.field,
      related_collection: system(relation.related_collection ?? null),
      meta: renameAllowed(omit(relation.meta, ['id', 'many_collection', 'many_field', 'one_collection', 'system']), system),
      schema: relation.schema ? { on_delete: relation.schema.on_delete ?? 'SET NULL' } : null,
    })),
  };
}

/** Database-reported defaults that are generators (a sequence, a uuid function), not values one sets. */
const GENERATED_DEFAULT = /^(nextval\(|gen_random_uuid\(\)|uuid_generate_v4\(\))/i;

function withoutGeneratedDefault(column: Raw | null): Raw | null {
  if (!column || typeof column.default_value !== 'string' || !GENERATED_DEFAULT.test(column.default_value)) return column;
  return { ...column, default_value: null };
}

function renameAllowed(meta: Raw | null, rename: (name: unknown) => unknown): Raw | null {
  if (!meta || !Array.isArray(meta.one_allowed_collections)) return meta;
  return { ...meta, one_allowed_collections: meta.one_allowed_collections.map(rename) };
}

/**
 * Snapshots written before operations were keyed by flow + key carry each operation's uuid, with
 * resolve, reject and the flows' `operation` pointing at uuids. Rewrites those references as the
 * operations' keys and drops the uuids; a document already keyed passes unchanged.
 */
export function operationReferencesAsKeys<T extends Raw>(document: T): T {
  const operations: Raw[] | undefined = document.operations;
  if (!operations?.some((operation) => operation.id !== undefined)) return document;
  const keyOf = new Map(operations.filter((operation) => operation.id !== undefined).map((operation) => [operation.id, operation.key]));
  const asKey = (value: unknown) => (typeof value === 'string' && keyOf.has(value) ? keyOf.get(value) : value);
  return {
    ...document,
    flows: document.flows?.map((flow: Raw) => ({ ...flow, operation: asKey(flow.operation) })),
    operations: operations.map(({ id: _id, ...operation }) => ({ ...operation, resolve: asKey(operation.resolve), reject: asKey(operation.reject) })),
  };
}

/** Forward migrations, by the version they read. */
const MIGRATIONS: Readonly<Record<number, (document: Raw) => Raw>> = { 1: fromVersion1 };

/** Brings a document of any known version to the current one; a newer version than this Tessera knows is refused. */
export function migrateDocument(document: Raw, source: string): Raw {
  let current = document;
  if (!Number.isInteger(current.version) || current.version < 1) {
    throw new InvalidPayloadError(`${source}: version must be a whole number from 1 to ${SNAPSHOT_VERSION}.`, { field: 'version' });
  }
  if (current.version > SNAPSHOT_VERSION) {
    throw new InvalidPayloadError(`${source}: snapshot version ${current.version} was written by a newer Tessera; this one reads up to version ${SNAPSHOT_VERSION}.`, {
      field: 'version',
    });
  }
  while (current.version < SNAPSHOT_VERSION) current = MIGRATIONS[current.version]!(current);
  return current;
}
