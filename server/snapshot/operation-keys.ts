import { configTable, rowKey } from './config-tables.ts';
import type { SnapshotRow } from './types.ts';

/**
 * In a snapshot, an operation's `resolve` / `reject` and a flow's `operation` name operations by key
 * (within the flow); in the database they are uuids. These map one to the other.
 */
export function operationIdsAsKeys(flows: SnapshotRow[], operations: SnapshotRow[], stored: Array<{ id: unknown; key: unknown }>): { flows: SnapshotRow[]; operations: SnapshotRow[] } {
  const keyOf = new Map(stored.map((row) => [String(row.id), String(row.key)]));
  const asKey = (value: unknown) => (value === null || value === undefined ? null : (keyOf.get(String(value)) ?? null));
  return {
    flows: flows.map((flow) => ({ ...flow, operation: asKey(flow.operation) })),
    operations: operations.map((operation) => ({ ...operation, resolve: asKey(operation.resolve), reject: asKey(operation.reject) })),
  };
}

/** The database id of the operation `key` of `flow`, from the operations' ids by row key (null: none). */
export function operationId(ids: Map<string, unknown>, flow: unknown, key: unknown): unknown {
  if (key === null || key === undefined) return null;
  return ids.get(rowKey(configTable('operations'), { flow, key })) ?? null;
}

/** A row's deferred references as database ids: operation keys become the ids the operations have now. */
export function referencesAsIds(section: string, row: SnapshotRow, operationIds: Map<string, unknown>): SnapshotRow {
  if (section === 'flows') return { ...row, operation: operationId(operationIds, row.id, row.operation) };
  if (section === 'operations') return { ...row, resolve: operationId(operationIds, row.flow, row.resolve), reject: operationId(operationIds, row.flow, row.reject) };
  return row;
}
