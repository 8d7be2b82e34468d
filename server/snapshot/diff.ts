import { configTable, rowKey, SETTINGS_COLUMNS } from './config-tables.ts';
import { referencedVariable } from './secrets.ts';
import { CONFIG_SECTIONS, type SnapshotDocument, type SnapshotRow } from './types.ts';
import type { Plan, PlanChange, PlanStep } from './plan.ts';

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Equality of JSON values where an unresolved `${env:…}` reference on the desired side matches anything. */
export function sameValue(current: unknown, desired: unknown): boolean {
  if (referencedVariable(desired)) return true;
  if (Array.isArray(current) && Array.isArray(desired)) return current.length === desired.length && current.every((item, index) => sameValue(item, desired[index]));
  if (isPlainObject(current) && isPlainObject(desired)) {
    const keys = new Set([...Object.keys(current), ...Object.keys(desired)]);
    return [...keys].every((key) => sameValue(current[key] ?? null, desired[key] ?? null));
  }
  return current === desired || (current !== null && desired !== null && typeof current === 'object' && JSON.stringify(current) === JSON.stringify(desired));
}

/** Reads `path` (dot-separated) out of a value. */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((item, key) => (isPlainObject(item) ? item[key] : undefined), value);
}

/**
 * The differing paths of two values, one level into `meta`, `schema` and `options`-like objects; the
 * values shown come from the display copies (secrets masked).
 */
function changes(current: unknown, desired: unknown, shownCurrent: unknown, shownDesired: unknown, depth = 2, prefix = ''): PlanChange[] {
  if (sameValue(current, desired)) return [];
  if (depth > 0 && isPlainObject(current) && isPlainObject(desired)) {
    const keys = [...new Set([...Object.keys(current), ...Object.keys(desired)])].sort();
    return keys.flatMap((key) =>
      changes(current[key] ?? null, desired[key] ?? null, at(shownCurrent, key) ?? null, at(shownDesired, key) ?? null, depth - 1, `${prefix}${key}.`),
    );
  }
  return [{ path: prefix.slice(0, -1) || '(value)', from: shownCurrent, to: shownDesired }];
}

/** The two documents diff compares, and the copies it shows values from (secrets as references). */
export interface DiffInput {
  current: SnapshotDocument;
  desired: SnapshotDocument;
  shownCurrent: SnapshotDocument;
  shownDesired: SnapshotDocument;
}

function byKey<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  return new Map((items ?? []).map((item) => [key(item), item]));
}

const collectionGroup = (name: string) => `collection ${name}`;

function schemaSteps(input: DiffInput): PlanStep[] {
  const { current, desired, shownCurrent, shownDesired } = input;
  const steps: PlanStep[] = [];
  const currentCollections = byKey(current.collections, (item) => item.collection);
  const desiredCollections = byKey(desired.collections, (item) => item.collection);
  for (const [name, collection] of desiredCollections) {
    const existing = currentCollections.get(name);
    if (!existing) {
      const fields = desired.fields.filter((field) => field.collection === name).map((field) => field.field);
      steps.push({ kind: 'collection', action: 'create', group: collectionGroup(name), name, changes: [{ path: 'fields', from: null, to: fields }] });
    } else if (!sameValue(existing, collection)) {
      steps.push({ kind: 'collection', action: 'update', group: collectionGroup(name), name, changes: changes(existing, collection, existing, collection) });
    }
  }
  for (const name of currentCollections.keys()) {
    if (!desiredCollections.has(name)) steps.push({ kind: 'collection', action: 'delete', group: collectionGroup(name), name, changes: [] });
  }
  const fieldKey = (item: { collection: string; field: string }) => `${item.collection}.${item.field}`;
  const currentFields = byKey(current.fields, fieldKey);
  const desiredFields = byKey(desired.fields, fieldKey);
  const shownFields = [byKey(shownCurrent.fields, fieldKey), byKey(shownDesired.fields, fieldKey)] as const;
  for (const [key, field] of desiredFields) {
    if (!currentCollections.has(field.collection)) continue;
    const existing = currentFields.get(key);
    const group = collectionGroup(field.collection);
    if (!existing) {
      steps.push({ kind: 'field', action: 'create', group, name: key, changes: [{ path: 'type', from: null, to: field.type }] });
    } else if (!sameValue(existing, field)) {
      steps.push({ kind: 'field', action: 'update', group, name: key, changes: changes(existing, field, shownFields[0].get(key), shownFields[1].get(key)) });
    }
  }
  for (const [key, field] of currentFields) {
    if (!desiredFields.has(key) && desiredCollections.has(field.collection)) {
      steps.push({ kind: 'field', action: 'delete', group: collectionGroup(field.collection), name: key, changes: [] });
    }
  }
  const currentRelations = byKey(current.relations, fieldKey);
  const desiredRelations = byKey(desired.relations, fieldKey);
  for (const [key, relation] of desiredRelations) {
    const existing = currentRelations.get(key);
    const group = collectionGroup(relation.collection);
    if (!existing) steps.push({ kind: 'relation', action: 'create', group, name: key, changes: [{ path: 'related_collection', from: null, to: relation.related_collection }] });
    else if (existing.related_collection !== relation.related_collection || !currentFields.has(key) || currentFields.get(key)!.type !== desiredFields.get(key)?.type) {
      // A relation to another collection is a new relation: the old one goes, the new one comes.
      steps.push({ kind: 'relation', action: 'delete', group, name: key, changes: [] });
      steps.push({ kind: 'relation', action: 'create', group, name: key, changes: [{ path: 'related_collection', from: existing.related_collection, to: relation.related_collection }] });
    } else if (!sameValue(existing, relation)) steps.push({ kind: 'relation', action: 'update', group, name: key, changes: changes(existing, relation, existing, relation) });
  }
  for (const [key, relation] of currentRelations) {
    if (!desiredRelations.has(key) && desiredCollections.has(relation.collection) && desiredFields.has(key)) {
      steps.push({ kind: 'relation', action: 'delete', group: collectionGroup(relation.collection), name: key, changes: [] });
    }
  }
  return steps;
}

/** Where a configuration row is printed: under its role for permissions and role presets, else its section. */
function configGroup(section: string, row: SnapshotRow): string {
  if (section === 'roles') return `role ${String(row.name)}`;
  if (section === 'permissions') return row.role === null ? 'public role' : `role ${String(row.role)}`;
  if (section === 'presets' && row.role !== null) return `role ${String(row.role)}`;
  if (section === 'extensions') return 'extensions';
  return section;
}

function configSteps(input: DiffInput): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const section of CONFIG_SECTIONS) {
    const desiredRows = input.desired[section];
    if (!desiredRows) continue;
    const table = configTable(section);
    const key = (row: SnapshotRow) => rowKey(table, row);
    const current = byKey(input.current[section], key);
    const shownCurrent = byKey(input.shownCurrent[section], key);
    const shownDesired = byKey(input.shownDesired[section], key);
    const desired = byKey(desiredRows, key);
    for (const [rowId, row] of desired) {
      const existing = current.get(rowId);
      const base = { kind: section, group: configGroup(section, row), name: table.label(row) || rowId, key: rowId } as const;
      if (!existing) steps.push({ ...base, action: 'create', changes: [] });
      else if (!sameValue(existing, row)) steps.push({ ...base, action: 'update', changes: changes(existing, row, shownCurrent.get(rowId), shownDesired.get(rowId), 2) });
    }
    for (const [rowId, row] of current) {
      if (!desired.has(rowId) && !table.keepUnlisted) steps.push({ kind: section, action: 'delete', group: configGroup(section, row), name: table.label(row) || rowId, key: rowId, changes: [] });
    }
  }
  const settings = input.desired.settings;
  if (settings) {
    const currentSettings = input.current.settings ?? {};
    const keys = SETTINGS_COLUMNS.filter((column) => column in settings);
    const changed = keys.flatMap((column) =>
      changes(currentSettings[column] ?? null, settings[column] ?? null, input.shownCurrent.settings?.[column] ?? null, input.shownDesired.settings?.[column] ?? null, 0, `${column}.`),
    );
    if (changed.length > 0) steps.push({ kind: 'settings', action: 'update', group: 'settings', name: 'settings', changes: changed });
  }
  return steps;
}

/**
 * The plan that turns `current` into `desired`: schema steps, then configuration steps. A configuration
 * section absent from `desired` is not managed and gives no steps. Data loss is measured separately
 * (data-loss.ts): it needs the database.
 */
export function diffDocuments(input: DiffInput, unresolved: string[] = []): Plan {
  return { steps: [...schemaSteps(input), ...configSteps(input)], unresolved };
}
