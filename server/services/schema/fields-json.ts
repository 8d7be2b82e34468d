import type { CollectionOverview, SchemaOverview } from '../../schema/overview.ts';
import type { SchemaVisibility } from './access.ts';

/**
 * The JSON of one collection's visible field answers without the brackets (comma-separated objects; empty
 * when none is visible), per collection object and visibility key. A schema change gives the collections it
 * touched new objects and keeps every other (server/schema/read-schema.ts); a field's answer also names the
 * table and primary key its foreign key points at, and every change that can alter those re-reads the
 * collections on both sides of the relation (services/schema/schema-change.ts, `withRelated`). So after a
 * change only the touched collections are encoded again.
 */
const FRAGMENTS = new WeakMap<CollectionOverview, WeakMap<object, Buffer>>();
/** The whole `{ data: [...] }` answer, per overview and visibility key. */
const WHOLE = new WeakMap<SchemaOverview, WeakMap<object, Buffer>>();

const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

function fragment(collection: CollectionOverview, key: object, answers: () => unknown[]): Buffer {
  let byKey = FRAGMENTS.get(collection);
  if (!byKey) FRAGMENTS.set(collection, (byKey = new WeakMap()));
  let bytes = byKey.get(key);
  if (!bytes) byKey.set(key, (bytes = Buffer.from(JSON.stringify(answers()).slice(1, -1))));
  return bytes;
}

/**
 * `GET /fields` as JSON bytes: `{ data: [...] }` with `answers(collection)` of every collection in the
 * overview's order, kept per overview and visibility and assembled from per-collection fragments, so the
 * first request after a change encodes only what the change touched. Without a key nothing is kept
 * (`kept: false`: the same bytes will not be asked for again).
 */
export function fieldsJson(schema: SchemaOverview, visible: SchemaVisibility, answers: (collection: CollectionOverview) => unknown[]): { body: Buffer; kept: boolean } {
  const key = visible.key;
  if (!key) return { body: Buffer.from(JSON.stringify({ data: Object.values(schema.collections).flatMap(answers) })), kept: false };
  let byKey = WHOLE.get(schema);
  if (!byKey) WHOLE.set(schema, (byKey = new WeakMap()));
  let whole = byKey.get(key);
  if (whole) return { body: whole, kept: true };
  const parts: Buffer[] = [OPEN];
  for (const collection of Object.values(schema.collections)) {
    const bytes = fragment(collection, key, () => answers(collection));
    if (bytes.length === 0) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(bytes);
  }
  parts.push(CLOSE);
  byKey.set(key, (whole = Buffer.concat(parts)));
  return { body: whole, kept: true };
}
