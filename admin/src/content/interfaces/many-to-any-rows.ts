import { renderTemplate } from '../display-template.ts';
import { keyOf, type AnyCollection, type RelatedTarget } from './related.ts';

type Item = Record<string, unknown>;

/** A many-to-any target (a junction with `any`). */
export type AnyTarget = RelatedTarget & { any: NonNullable<RelatedTarget['any']> };

/** Whether a relational target is a many-to-any one. */
export function isAnyTarget(target: RelatedTarget | null | undefined): target is AnyTarget {
  return Boolean(target?.any);
}

/**
 * The `fields` that read a many-to-any value for showing it: each junction row's key and collection, and
 * the label fields of its item, per allowed collection (`blocks.item:block_text.title`, docs/query.md).
 */
export function anyReadPaths(field: string, target: AnyTarget, labelFieldsOf: (collection: string) => string[]): string[] {
  const { itemField, collectionField, allowed } = target.any;
  const paths = [`${field}.${target.primaryKey}`, `${field}.${collectionField}`];
  for (const entry of allowed) for (const label of labelFieldsOf(entry.collection)) paths.push(`${field}.${itemField}:${entry.collection}.${label}`);
  return paths;
}

/** The allowed collection a junction row's item belongs to, if it is one. */
export function anyCollectionOf(row: Item, target: AnyTarget): AnyCollection | undefined {
  const name = row[target.any.collectionField];
  return target.any.allowed.find((entry) => entry.collection === name);
}

/** A junction row's item as its collection's template shows it (its key when the item was not read). */
export function anyRowLabel(row: Item, target: AnyTarget): string {
  const item = row[target.any.itemField];
  const collection = anyCollectionOf(row, target);
  return collection ? renderTemplate(collection.template, item, collection.primaryKey) : renderTemplate('', item);
}

/** A new junction row for an item of `collection` (an existing item with its labels, or one to create). */
export function anyRow(target: AnyTarget, collection: string, item: Item): Item {
  return { [target.any.collectionField]: collection, [target.any.itemField]: item };
}

/**
 * The value the API takes (docs/api.md, nested relational writes): kept rows as their junction key, new
 * rows as `{ collection, item }` with an existing item's key or the new item's fields.
 */
export function anyPayload(rows: unknown[], target: AnyTarget): unknown[] {
  return rows.map((entry) => {
    const row = (entry ?? {}) as Item;
    const junctionKey = row[target.primaryKey];
    if (junctionKey !== undefined && junctionKey !== null) return junctionKey;
    const collection = anyCollectionOf(row, target);
    const item = row[target.any.itemField];
    return { [target.any.collectionField]: row[target.any.collectionField], [target.any.itemField]: (collection && keyOf(item, collection.primaryKey)) ?? item };
  });
}
