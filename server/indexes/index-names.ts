import { createHash } from 'node:crypto';

/** PostgreSQL's identifier limit in bytes. */
const MAX_IDENTIFIER = 63;

/** `name`, shortened with a hash of the whole when it would pass PostgreSQL's identifier limit. */
function fitIdentifier(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER) return name;
  return `${name.slice(0, 50)}_${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/**
 * The btree index Tessera manages on one column: `<table>_<column>_index`. Foreign keys get the same name
 * (relation-writes.ts), so an m2o field marked `is_indexed` never gets a second index.
 */
export function columnIndexName(table: string, column: string): string {
  return fitIdentifier(`${table}_${column}_index`);
}

/** The trigram (GIN, gin_trgm_ops) index Tessera manages on a searchable text column. */
export function trigramIndexName(table: string, column: string): string {
  return fitIdentifier(`${table}_${column}_trgm_index`);
}

/** A btree index on several columns, in order (an advised filter + sort). */
export function compositeIndexName(table: string, columns: readonly string[]): string {
  return fitIdentifier(`${table}_${columns.join('_')}_index`);
}
