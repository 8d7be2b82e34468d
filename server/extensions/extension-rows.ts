import { sql, type Kysely } from 'kysely';
import type { ExtensionSource } from '../extension-packages/discover.ts';

/** A tessera_extensions row. */
export interface ExtensionRow {
  id: string;
  folder: string;
  source: ExtensionSource;
  bundle: string | null;
  enabled: boolean;
}

/** What needs a row: an extension found on disk, or an entry of a bundle (`bundle` names the bundle's folder). */
export interface RowKey {
  folder: string;
  source: ExtensionSource;
  bundleFolder: string | null;
}

/**
 * Makes sure every extension found has its row (new ones enabled) and returns the rows of all of them,
 * bundles first so entries can point at them. Rows of extensions that are gone stay, so a switched-off
 * extension that comes back is still off.
 */
export async function syncExtensionRows(db: Kysely<any>, keys: RowKey[]): Promise<ExtensionRow[]> {
  const bundles = keys.filter((key) => key.bundleFolder === null);
  const entries = keys.filter((key) => key.bundleFolder !== null);
  if (bundles.length > 0) {
    await db
      .insertInto('tessera_extensions')
      .values(bundles.map((key) => ({ folder: key.folder, source: key.source, bundle: null, enabled: true })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  const tops = await readRows(db);
  const idOf = (folder: string, source: ExtensionSource) => tops.find((row) => row.bundle === null && row.folder === folder && row.source === source)?.id;
  const entryValues = entries.flatMap((key) => {
    const bundle = idOf(key.bundleFolder!, key.source);
    return bundle ? [{ folder: key.folder, source: key.source, bundle, enabled: true }] : [];
  });
  if (entryValues.length > 0) await db.insertInto('tessera_extensions').values(entryValues).onConflict((conflict) => conflict.doNothing()).execute();
  return readRows(db);
}

/** Every row, for matching against what was found. */
export async function readRows(db: Kysely<any>): Promise<ExtensionRow[]> {
  return (await db.selectFrom('tessera_extensions').select(['id', 'folder', 'source', 'bundle', 'enabled']).orderBy(sql`bundle nulls first`).orderBy('folder').execute()) as ExtensionRow[];
}
