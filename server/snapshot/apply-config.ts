import type { Kysely } from 'kysely';
import { withDatabaseErrors } from '../database/translate-db-error.ts';
import { CONFIG_TABLES, SETTINGS_COLUMNS, rowKey, type ConfigTable } from './config-tables.ts';
import { runStep } from './apply-schema.ts';
import { referencesAsIds } from './operation-keys.ts';
import type { PlanStep } from './plan.ts';
import type { DatabaseState } from './read-snapshot.ts';
import type { ConfigSection, SnapshotDocument, SnapshotRow } from './types.ts';
import { applySettingsRules } from '../services/items/settings-rules.ts';

/** Role ids by name, read again after roles were written. */
async function roleIds(db: Kysely<any>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('tessera_roles').select(['id', 'name']).execute();
  return new Map(rows.map((row) => [String(row.name), String(row.id)]));
}

/** A value as its column takes it: lists joined, JSON serialised (node-postgres would send arrays as PostgreSQL arrays). */
function columnValue(table: ConfigTable, column: string, value: unknown, roles: Map<string, string>): unknown {
  if (value === null || value === undefined) return null;
  if (table.csv?.includes(column)) return Array.isArray(value) ? value.join(',') : value;
  if (table.roleColumns?.includes(column)) return roles.get(String(value)) ?? null;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

function databaseRow(table: ConfigTable, row: SnapshotRow, roles: Map<string, string>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [column, columnValue(table, column, row[column], roles)]));
}

/**
 * Writes the configuration steps of a plan in the caller's transaction: creates and updates in
 * dependency order (roles, folders, flows, operations, dashboards, panels, webhooks, translations,
 * permissions, presets) with self and cyclic references (folder parents, flow → operation, operation →
 * next operation) set in a second pass, then deletes in reverse order, then settings.
 */
export async function applyConfigSteps(db: Kysely<any>, steps: PlanStep[], state: DatabaseState, desired: SnapshotDocument, progress: (step: PlanStep) => void): Promise<void> {
  const pending = new Map<ConfigSection, PlanStep[]>();
  for (const step of steps) {
    if (step.kind === 'collection' || step.kind === 'field' || step.kind === 'relation' || step.kind === 'settings') continue;
    pending.set(step.kind, [...(pending.get(step.kind) ?? []), step]);
  }
  let roles = state.roleIds;
  const deferredWrites: Array<() => Promise<void>> = [];
  for (const table of CONFIG_TABLES) {
    const tableSteps = (pending.get(table.section) ?? []).filter((step) => step.action !== 'delete');
    if (tableSteps.length === 0) continue;
    const rows = new Map((desired[table.section] ?? []).map((row) => [rowKey(table, row), row]));
    const ids = state.ids.get(table.section)!;
    const direct = table.columns.filter((column) => !table.deferred?.includes(column));
    for (const step of tableSteps) {
      const row = rows.get(step.key!)!;
      await runStep(step, () =>
        withDatabaseErrors(async () => {
          let id = ids.get(step.key!);
          if (table.write) {
            ids.set(step.key!, await table.write(db, row));
            return;
          }
          const values = databaseRow(table, row, roles, direct);
          if (step.action === 'create') {
            const nulls = Object.fromEntries((table.deferred ?? []).map((column) => [column, null]));
            const inserted = await db.insertInto(table.table).values({ ...values, ...nulls }).returning('id').executeTakeFirstOrThrow();
            id = inserted.id;
            ids.set(step.key!, id);
          } else {
            // A reference that changes is cleared first: unique references (flow → operation) may swap.
            const cleared = Object.fromEntries((table.deferred ?? []).map((column) => [column, null]));
            await db.updateTable(table.table).set({ ...values, ...cleared }).where('id', '=', id).execute();
          }
          if (table.deferred?.length) {
            // Resolved when the write runs, after every row is created: operation keys become those rows' ids.
            const deferredRow = () => databaseRow(table, referencesAsIds(table.section, row, state.ids.get('operations')!), roles, table.deferred!);
            deferredWrites.push(() => runStep(step, () => withDatabaseErrors(() => db.updateTable(table.table).set(deferredRow()).where('id', '=', id).execute().then(() => undefined))));
          }
        }),
      );
      progress(step);
    }
    if (table.section === 'roles') roles = await roleIds(db);
  }
  for (const write of deferredWrites) await write();
  for (const table of [...CONFIG_TABLES].reverse()) {
    const ids = state.ids.get(table.section)!;
    for (const step of (pending.get(table.section) ?? []).filter((item) => item.action === 'delete')) {
      await runStep(step, () => db.deleteFrom(table.table).where('id', '=', ids.get(step.key!)).execute());
      progress(step);
    }
  }
  const settingsStep = steps.find((step) => step.kind === 'settings');
  if (settingsStep && desired.settings) {
    // The same SPEC §5 rules as every other settings write (asset presets, basemaps, aspect ratios).
    const settings = applySettingsRules(desired.settings);
    const values = Object.fromEntries(
      SETTINGS_COLUMNS.filter((column) => column in settings).map((column) => {
        const value = settings[column];
        return [column, value !== null && typeof value === 'object' ? JSON.stringify(value) : value];
      }),
    );
    await runStep(settingsStep, () => withDatabaseErrors(() => db.updateTable('tessera_settings').set(values).where('id', '=', 1).execute()));
    progress(settingsStep);
  }
}
