import { mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { SNAPSHOT_EXTENSIONS, SNAPSHOT_FOLDERS, splitDocument } from './layout.ts';
import { sortKeysDeep } from './sort.ts';
import type { SnapshotDocument } from './types.ts';
import { writePlainYaml } from './yaml-writer.ts';

// `yaml` is loaded only for a value the fast writer leaves to it (yaml-writer.ts); formatValue stays synchronous.
const requireModule = createRequire(import.meta.url);

/** File formats a snapshot can be written in. */
export const SNAPSHOT_FORMATS = ['yaml', 'json'] as const;
export type SnapshotFormat = (typeof SNAPSHOT_FORMATS)[number];

/** One value as file text: keys sorted, no YAML anchors, no folded lines, a final newline. */
export function formatValue(value: unknown, format: SnapshotFormat): string {
  const sorted = sortKeysDeep(value);
  if (format === 'json') return `${JSON.stringify(sorted, null, 2)}\n`;
  return writePlainYaml(sorted) ?? (requireModule('yaml') as typeof import('yaml')).stringify(sorted, { aliasDuplicateObjects: false, lineWidth: 0, indentSeq: true });
}

/** The files of a document as text, by path relative to the snapshot folder. */
export function renderSnapshot(document: SnapshotDocument, format: SnapshotFormat): Map<string, string> {
  const rendered = new Map<string, string>();
  for (const [name, content] of splitDocument(document)) rendered.set(`${name}.${format}`, formatValue(content, format));
  return rendered;
}

/**
 * Writes a document to `folder`: every file rewritten, files of collections, roles or config kinds that
 * no longer exist removed (only snapshot files in the snapshot's own sub-folders). Returns the paths written.
 */
export function writeSnapshot(folder: string, document: SnapshotDocument, format: SnapshotFormat): string[] {
  const rendered = renderSnapshot(document, format);
  for (const sub of SNAPSHOT_FOLDERS) {
    const directory = path.join(folder, sub);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory)) {
      const relative = `${sub}/${entry}`;
      if (SNAPSHOT_EXTENSIONS.some((extension) => entry.endsWith(extension)) && !rendered.has(relative)) rmSync(path.join(directory, entry));
    }
  }
  for (const extension of SNAPSHOT_EXTENSIONS) {
    const manifest = path.join(folder, `tessera${extension}`);
    if (existsSync(manifest) && !rendered.has(`tessera${extension}`)) rmSync(manifest);
  }
  for (const [relative, text] of rendered) {
    const target = path.join(folder, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return [...rendered.keys()];
}
