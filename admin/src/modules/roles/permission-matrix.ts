/**
 * The permission matrix of a role editor: collections × actions, each cell none (no row), all (a row
 * with every field and no rules) or custom (a row with a field list, an item rule, validation or presets).
 * Pure logic, so the matrix ↔ tessera_permissions rows mapping is unit-tested.
 */

/** Permission actions, in matrix column order (DESIGN.md §5). */
export const PERMISSION_ACTIONS = ['create', 'read', 'update', 'delete', 'share'] as const;
/** One permission action. */
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/** Actions whose writes carry validation and presets. */
export const WRITE_ACTIONS: readonly PermissionAction[] = ['create', 'update'];

/** A filter in the query language (item rule or validation). */
export type FilterObject = Record<string, unknown>;

/** A tessera_permissions row as /permissions reads it (fields is a csv field: a list). */
export interface PermissionRow {
  id: number;
  role: string | null;
  collection: string;
  action: PermissionAction;
  fields: string[] | string | null;
  permissions: FilterObject | null;
  validation: FilterObject | null;
  presets: Record<string, unknown> | null;
}

/** What a cell shows. */
export type CellState = 'none' | 'all' | 'custom';

/** The settings of a custom cell, as the drawer edits them. */
export interface CustomPermission {
  /** '*' for every field, else exactly these. */
  fields: '*' | string[];
  permissions: FilterObject | null;
  validation: FilterObject | null;
  presets: Record<string, unknown> | null;
}

/** A write to /permissions that brings the stored rows to what the matrix asks. */
export type PermissionWrite =
  | { kind: 'create'; rows: Array<Omit<PermissionRow, 'id'>> }
  | { kind: 'update'; id: number; data: Omit<PermissionRow, 'id' | 'role' | 'collection' | 'action'> }
  | { kind: 'delete'; ids: number[] };

/** Actions each system collection grants app users without a stored row (docs/permissions.md, SPEC §6). */
export const APP_DEFAULT_ACTIONS: Readonly<Record<string, readonly PermissionAction[]>> = {
  tessera_activity: ['read', 'create'],
  tessera_collections: ['read'],
  tessera_fields: ['read'],
  tessera_flows: ['read'],
  tessera_notifications: ['read', 'update'],
  tessera_permissions: ['read'],
  tessera_presets: ['read', 'create', 'update', 'delete'],
  tessera_relations: ['read'],
  tessera_roles: ['read'],
  tessera_settings: ['read'],
  tessera_shares: ['read'],
  tessera_translations: ['read'],
  tessera_users: ['read'],
};

/** True when a role with app access gets `action` on `collection` from the defaults while no row is stored. */
export function hasAppDefault(collection: string, action: PermissionAction): boolean {
  return APP_DEFAULT_ACTIONS[collection]?.includes(action) ?? false;
}

/** A field list as names; `*` anywhere means every field (as the server reads it). */
export function parseFields(fields: PermissionRow['fields']): '*' | string[] {
  const list = typeof fields === 'string' ? fields.split(',') : (fields ?? []);
  const names = list.map((name) => name.trim()).filter(Boolean);
  return names.includes('*') ? '*' : names;
}

/** An object with at least one key, else null (the server reads `{}` as no rule). */
function ruleOrNull<T extends object>(value: T | null | undefined): T | null {
  return value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0 ? value : null;
}

/** The state a stored row (or its absence) shows in the matrix. */
export function cellState(row: PermissionRow | undefined): CellState {
  if (!row) return 'none';
  const everyField = parseFields(row.fields) === '*';
  const plain = !ruleOrNull(row.permissions) && !ruleOrNull(row.validation) && !ruleOrNull(row.presets);
  return everyField && plain ? 'all' : 'custom';
}

/** A stored row as the drawer's settings. */
export function toCustomPermission(row: PermissionRow | undefined): CustomPermission {
  return {
    fields: row ? parseFields(row.fields) : '*',
    permissions: ruleOrNull(row?.permissions),
    validation: ruleOrNull(row?.validation),
    presets: ruleOrNull(row?.presets),
  };
}

/** The stored rows of one role, by collection and action. */
export type PermissionIndex = ReadonlyMap<string, PermissionRow>;

/** The key of a cell. */
export function cellKey(collection: string, action: PermissionAction): string {
  return `${collection}:${action}`;
}

/** Indexes a role's rows by collection and action. */
export function indexRows(rows: readonly PermissionRow[]): PermissionIndex {
  return new Map(rows.map((row) => [cellKey(row.collection, row.action), row]));
}

/** The row data a cell setting stores; validation and presets only for create and update. */
function rowData(action: PermissionAction, setting: CustomPermission): Omit<PermissionRow, 'id' | 'role' | 'collection' | 'action'> {
  const writes = WRITE_ACTIONS.includes(action);
  return {
    fields: setting.fields === '*' ? ['*'] : [...setting.fields],
    permissions: ruleOrNull(setting.permissions),
    validation: writes ? ruleOrNull(setting.validation) : null,
    presets: writes ? ruleOrNull(setting.presets) : null,
  };
}

/** Every field, no rules: what "all" stores. */
export const ALL_ACCESS: CustomPermission = { fields: '*', permissions: null, validation: null, presets: null };

/** What one cell should become: no row, or a row with these settings. */
export type CellTarget = { collection: string; action: PermissionAction; setting: CustomPermission | null };

/**
 * The writes that bring `index` to the targets: rows to create (one request, one transaction), rows to
 * update, and rows to delete (one request). Cells already as asked produce nothing.
 */
export function planWrites(role: string | null, index: PermissionIndex, targets: readonly CellTarget[]): PermissionWrite[] {
  const create: Array<Omit<PermissionRow, 'id'>> = [];
  const updates: PermissionWrite[] = [];
  const remove: number[] = [];
  for (const { collection, action, setting } of targets) {
    const row = index.get(cellKey(collection, action));
    if (setting === null) {
      if (row) remove.push(row.id);
      continue;
    }
    const data = rowData(action, setting);
    if (!row) create.push({ role, collection, action, ...data });
    else if (!sameData(row, data)) updates.push({ kind: 'update', id: row.id, data });
  }
  const writes: PermissionWrite[] = [];
  if (remove.length > 0) writes.push({ kind: 'delete', ids: remove });
  writes.push(...updates);
  if (create.length > 0) writes.push({ kind: 'create', rows: create });
  return writes;
}

function sameData(row: PermissionRow, data: ReturnType<typeof rowData>): boolean {
  const stored = rowData(row.action, toCustomPermission(row));
  return JSON.stringify(normaliseFields(stored)) === JSON.stringify(normaliseFields(data));
}

function normaliseFields<T extends { fields: string[] | string | null }>(data: T): T {
  const fields = parseFields(data.fields);
  return { ...data, fields: fields === '*' ? ['*'] : [...fields].sort() };
}

/** Targets setting every action of a collection to all (`'all'`) or none (`'none'`). */
export function rowTargets(collection: string, state: 'all' | 'none'): CellTarget[] {
  return PERMISSION_ACTIONS.map((action) => ({ collection, action, setting: state === 'all' ? ALL_ACCESS : null }));
}

/** The state shown for a whole collection row: all when every action is all, none when none, else mixed. */
export function collectionState(index: PermissionIndex, collection: string): CellState | 'mixed' {
  const states = new Set(PERMISSION_ACTIONS.map((action) => cellState(index.get(cellKey(collection, action)))));
  return states.size === 1 ? [...states][0]! : 'mixed';
}
