import { InvalidPayloadError } from '../../errors.ts';
import type { RelationOverview } from '../../schema/overview.ts';
import type { ItemKey, ItemsService } from './items-service.ts';

type Payload = Record<string, unknown>;

/** The `{ create, update, delete }` form of an o2m value. */
interface O2mChanges {
  create?: unknown[];
  update?: unknown[];
  delete?: unknown[];
}

function isPlainObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKey(value: unknown): value is ItemKey {
  return typeof value === 'string' || typeof value === 'number';
}

/**
 * Resolves an m2o value to a key: a key stays a key; an object with the primary key of an existing item
 * updates that item (when it carries more fields) and links it; an object without one, or with a key no
 * item has yet (a client-chosen key, as Directus allows), creates the item.
 */
export async function writeManyToOne(related: ItemsService, value: unknown, field: string): Promise<ItemKey | null> {
  if (value === null || isKey(value)) return value as ItemKey | null;
  if (!isPlainObject(value)) throw new InvalidPayloadError(`Field "${field}" must be a key or an object.`, { field });
  const primary = related.primaryKeyField;
  const key = value[primary];
  if (isKey(key) && (await related.exists(key))) {
    const rest = { ...value };
    delete rest[primary];
    if (Object.keys(rest).length > 0) await related.updateMany([key], rest);
    return key;
  }
  return related.createOne(value);
}

/**
 * Applies an o2m value for one parent. An array is the complete new set of children (keys link, objects
 * with the key of an existing item update and link it, other objects create one, with the key they carry
 * if any); children no longer listed are
 * deselected. `{ create, update, delete }` changes only what it names. Deselecting nullifies the
 * child's key or deletes the child, per the relation's deselect action.
 */
export async function writeOneToMany(child: ItemsService, relation: RelationOverview, parentKey: ItemKey, value: unknown, field: string): Promise<void> {
  const foreignKey = relation.field;
  const primary = child.primaryKeyField;
  const link = async (item: unknown): Promise<unknown> => {
    if (isKey(item)) return child.updateMany([item], { [foreignKey]: parentKey });
    if (!isPlainObject(item)) throw new InvalidPayloadError(`Items of "${field}" must be keys or objects.`, { field });
    const key = item[primary];
    if (isKey(key) && (await child.exists(key))) {
      const rest = { ...item, [foreignKey]: parentKey };
      delete rest[primary];
      return child.updateMany([key], rest);
    }
    return child.createOne({ ...item, [foreignKey]: parentKey });
  };
  const deselect = async (keys: ItemKey[]): Promise<void> => {
    if (keys.length === 0) return;
    if (relation.meta.oneDeselectAction === 'delete') await child.deleteMany(keys);
    else await child.updateMany(keys, { [foreignKey]: null });
  };

  if (Array.isArray(value)) {
    const kept = new Set<string>();
    for (const item of value) {
      const linked = isKey(item) ? item : isPlainObject(item) && isKey(item[primary]) ? item[primary] : null;
      if (linked !== null) kept.add(String(linked));
    }
    const current = await child.keysWhere(foreignKey, parentKey);
    await deselect(current.filter((key) => !kept.has(String(key))));
    for (const item of value) await link(item);
    return;
  }
  if (!isPlainObject(value)) throw new InvalidPayloadError(`Field "${field}" must be an array or { create, update, delete }.`, { field });
  const changes = value as O2mChanges;
  for (const item of changes.create ?? []) {
    if (!isPlainObject(item)) throw new InvalidPayloadError(`"${field}.create" must hold objects.`, { field });
    await child.createOne({ ...item, [foreignKey]: parentKey });
  }
  for (const item of changes.update ?? []) {
    if (!isPlainObject(item) || !isKey(item[primary])) throw new InvalidPayloadError(`"${field}.update" must hold objects with "${primary}".`, { field });
    await link(item);
  }
  const removed = (changes.delete ?? []).filter(isKey);
  const owned = new Set((await child.keysWhere(foreignKey, parentKey)).map(String));
  await deselect(removed.filter((key) => owned.has(String(key))));
}
