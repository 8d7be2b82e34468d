import type { FieldMeta, FieldSpecial, FieldType } from './types.ts';

/**
 * The schema overview: everything the query layer and the services need to know about collections,
 * fields and relations, system and user ones alike. Built from the database and the system metadata,
 * cached, and rebuilt when the schema changes. Plain data, safe to share between requests.
 */
export interface SchemaOverview {
  collections: Record<string, CollectionOverview>;
  relations: RelationOverview[];
}

/** One collection (a table, or a folder when `table` is false). */
export interface CollectionOverview {
  collection: string;
  /** Primary-key field name. */
  primary: string;
  /** False for folder collections (`schema: null`): metadata only, no table. */
  table: boolean;
  /** System collections are refused under /items and served on their own endpoints. */
  system: boolean;
  singleton: boolean;
  /** Field that orders items manually (`/utils/sort`), if any. */
  sortField: string | null;
  /** What writes record: activity and revisions (`all`), activity only, or nothing (null). */
  accountability: 'all' | 'activity' | null;
  archive: { field: string; value: string | null; unarchiveValue: string | null } | null;
  /** Collection metadata as stored in tessera_collections (null for system collections and tables without a row). */
  meta: Record<string, unknown> | null;
  fields: Record<string, FieldOverview>;
}

/** One field of a collection. */
export interface FieldOverview {
  field: string;
  type: FieldType;
  /** PostgreSQL type as information_schema reports it (`character varying`, `integer` …); null for aliases. */
  dbType: string | null;
  /** True when the field has no column (o2m, m2m, m2a, groups, presentation). */
  alias: boolean;
  primaryKey: boolean;
  nullable: boolean;
  /** Column default as a literal value, or null; generated defaults (serial, now(), uuid) are not literal. */
  defaultValue: unknown;
  /** True when the database fills the value (serial/identity, gen_random_uuid(), now()). */
  generated: boolean;
  maxLength: number | null;
  precision: number | null;
  scale: number | null;
  unique: boolean;
  /** A plain single-column btree index exists on the column (`schema.is_indexed`); unique and primary keys are not counted. */
  indexed: boolean;
  special: FieldSpecial[];
  /** Never returned in clear. */
  concealed: boolean;
  /** Searched by `?search=` (string-like, non-concealed). */
  searchable: boolean;
  meta: FieldMeta | null;
}

/**
 * One relation, stored from the "many" side: `collection.field` holds the key of an item of
 * `relatedCollection` (m2o). The reverse o2m alias is `meta.oneField` on the related collection.
 * m2m is two relations through a junction collection; m2a has `relatedCollection` null and
 * `meta.oneCollectionField` naming the column that holds the related collection's name.
 */
export interface RelationOverview {
  collection: string;
  field: string;
  relatedCollection: string | null;
  meta: {
    id: number | null;
    oneField: string | null;
    oneCollectionField: string | null;
    oneAllowedCollections: string[] | null;
    junctionField: string | null;
    sortField: string | null;
    oneDeselectAction: 'nullify' | 'delete';
  };
  /** The foreign key, when there is one. */
  schema: { constraintName: string; onDelete: string; onUpdate: string } | null;
}
