/** How an extension loaded (`status` of GET /extensions). */
export const EXTENSION_STATUSES = ['loaded', 'disabled', 'error', 'incompatible'] as const;

/** Where an extension was found: the EXTENSIONS_PATH folder, or an installed package. */
export const EXTENSION_SOURCES = ['local', 'module'] as const;

/** One extension as `GET /extensions` answers it (Directus's shape, with Tessera's load status beside it). */
export interface ExtensionRecord {
  id: string;
  bundle: string | null;
  schema: { type: string; name: string; version?: string; local: boolean; host?: string; entries?: Array<{ type: string; name: string }> } | null;
  meta: { enabled: boolean; folder: string; source: (typeof EXTENSION_SOURCES)[number]; bundle: string | null };
  status: (typeof EXTENSION_STATUSES)[number];
  error: string | null;
}

/** A row of the extensions table: an extension, and under a bundle its entries. */
export interface ExtensionRow extends ExtensionRecord {
  children?: ExtensionRow[];
}

/** The name to show: the manifest's, else the folder's (an extension without a manifest has no schema). */
export function extensionName(extension: ExtensionRecord): string {
  return extension.schema?.name ?? extension.meta.folder;
}

/** Whether the status carries a load error worth showing. */
export function failedToLoad(extension: ExtensionRecord): boolean {
  return extension.status === 'error' || extension.status === 'incompatible';
}

const byName = (a: ExtensionRow, b: ExtensionRow) => extensionName(a).localeCompare(extensionName(b));

/**
 * The table's rows: top-level extensions by name, each bundle holding its entries (by name) as children.
 * An entry whose bundle is not listed stays at the top level, so nothing is hidden.
 */
export function extensionRows(extensions: ExtensionRecord[], overrides: ReadonlyMap<string, ExtensionRecord> = new Map()): ExtensionRow[] {
  const current = extensions.map((extension) => overrides.get(extension.id) ?? extension);
  const ids = new Set(current.map((extension) => extension.id));
  const entriesOf = new Map<string, ExtensionRow[]>();
  const top: ExtensionRow[] = [];
  for (const extension of current) {
    if (extension.bundle !== null && ids.has(extension.bundle)) {
      const entries = entriesOf.get(extension.bundle) ?? [];
      entries.push({ ...extension });
      entriesOf.set(extension.bundle, entries);
    } else top.push({ ...extension });
  }
  for (const row of top) {
    const entries = entriesOf.get(row.id);
    if (entries) row.children = entries.sort(byName);
  }
  return top.sort(byName);
}

/** The ids of the rows that hold entries (the bundles), to show them opened. */
export function bundleIds(rows: ExtensionRow[]): string[] {
  return rows.filter((row) => row.children && row.children.length > 0).map((row) => row.id);
}
