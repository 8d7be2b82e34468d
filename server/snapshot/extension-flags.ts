import type { Kysely } from 'kysely';
import { discoverExtensions } from '../extension-packages/discover.ts';
import type { SnapshotRow } from './types.ts';

/**
 * The `extensions` section of a snapshot: which extensions are enabled, as config/extensions.yaml.
 * An extension is named by where it comes from (`source`: local | module), its bundle's folder or package
 * name (`bundle`, null for one that is not a bundle entry) and its own folder, package or entry name
 * (`folder`): the names a project chooses, the same in every database (the rows' uuids are not).
 */

/** An extension as a snapshot names it. */
export interface ExtensionName {
  source: string;
  bundle: string | null;
  folder: string;
}

/** How an extension is shown in a plan or a warning: `local audit-hook`, `local my-bundle/greet`. */
export function extensionLabel(row: SnapshotRow | ExtensionName): string {
  return `${String(row.source)} ${row.bundle ? `${String(row.bundle)}/` : ''}${String(row.folder)}`;
}

/** Every tessera_extensions row with its bundle named by folder, and the database ids. */
export async function readExtensionRows(db: Kysely<any>): Promise<Array<{ row: SnapshotRow; id: unknown }>> {
  const records = await db
    .selectFrom('tessera_extensions as extension')
    .leftJoin('tessera_extensions as bundle', 'bundle.id', 'extension.bundle')
    .select(['extension.id as id', 'extension.source as source', 'bundle.folder as bundle', 'extension.folder as folder', 'extension.enabled as enabled'])
    .execute();
  return records.map(({ id, ...row }) => ({ row: { source: row.source, bundle: row.bundle ?? null, folder: row.folder, enabled: row.enabled }, id }));
}

/**
 * Records an extension's flag: updates its row, or creates it (and its bundle's, enabled, when that has
 * none yet) for an extension not found yet, so it starts in the snapshot's state once it is installed.
 * Returns the row's id. Upserts, so a bundle and its entries can be written in any order.
 */
export async function writeExtensionRow(db: Kysely<any>, row: SnapshotRow): Promise<unknown> {
  let bundle: unknown = null;
  if (row.bundle !== null && row.bundle !== undefined) {
    await db.insertInto('tessera_extensions').values({ source: row.source, folder: row.bundle, bundle: null, enabled: true }).onConflict((conflict) => conflict.doNothing()).execute();
    bundle = (await db.selectFrom('tessera_extensions').select('id').where('source', '=', row.source).where('folder', '=', row.bundle).where('bundle', 'is', null).executeTakeFirstOrThrow()).id;
  }
  const written = await db
    .insertInto('tessera_extensions')
    .values({ source: row.source, folder: row.folder, bundle, enabled: row.enabled })
    .onConflict((conflict) => conflict.columns(['source', 'folder', 'bundle']).doUpdateSet({ enabled: row.enabled as boolean }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return written.id;
}

/** The extensions installed in this project (on disk now), bundle entries included, by name. */
export async function installedExtensions(extensionsPath: string, projectDir: string): Promise<ExtensionName[]> {
  const found = await discoverExtensions(extensionsPath, projectDir);
  return found.flatMap((extension) => [
    { source: extension.source, bundle: null, folder: extension.folder },
    ...(extension.manifest?.type === 'bundle' ? extension.manifest.entries.map((entry) => ({ source: extension.source, bundle: extension.folder, folder: entry.name })) : []),
  ]);
}

/**
 * Warnings for extensions a snapshot names that are not installed here. Not errors: one snapshot serves
 * every environment, and an apply often runs before the code that brings an extension is deployed; the
 * flag is recorded all the same and holds once the extension arrives.
 */
export function notInstalledWarnings(rows: readonly SnapshotRow[] | undefined, installed: readonly ExtensionName[]): string[] {
  const here = new Set(installed.map(extensionLabel));
  return (rows ?? [])
    .filter((row) => !here.has(extensionLabel(row)))
    .map((row) => `extension ${extensionLabel(row)} is not installed here: enabled: ${String(row.enabled)} is recorded and takes effect when it is installed.`);
}
