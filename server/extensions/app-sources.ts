import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ListedExtension } from './extension-manager.ts';
import { APP_TYPES } from '../extension-packages/manifest.ts';

/** An admin extension as the admin loads it: its module's URL under /extensions/app. */
export interface AppExtension {
  id: string;
  name: string;
  type: string;
  version: string | null;
  entry: string;
}

/**
 * The loaded extensions with an admin entry (admin kinds, and bundles that have an `app` path), with the URL
 * of that entry. Files are served from the entry's folder only (appSourceFile).
 */
export function appExtensions(listed: ListedExtension[]): AppExtension[] {
  return listed
    .filter((extension) => extension.bundle === null && extension.status === 'loaded' && extension.manifest?.app && ((APP_TYPES as readonly string[]).includes(extension.manifest.type) || extension.manifest.type === 'bundle'))
    .map((extension) => ({
      id: extension.id,
      name: extension.name,
      type: extension.manifest!.type,
      version: extension.version,
      entry: `/extensions/app/${extension.id}/${encodeURI(path.basename(extension.manifest!.app!))}`,
    }));
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.map': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/**
 * A file of an admin extension: `relative` resolved inside the folder of its app entry (no way out of it,
 * no dot files), with its type and a validator. Null when there is no such file.
 */
export async function appSourceFile(extension: ListedExtension, relative: string): Promise<{ open(): NodeJS.ReadableStream; type: string; etag: string; size: number } | null> {
  const entry = extension.manifest?.app;
  if (!entry || extension.status !== 'loaded') return null;
  const root = path.dirname(entry);
  const file = path.resolve(root, relative);
  const inside = path.relative(root, file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside) || inside.split(path.sep).some((part) => part.startsWith('.'))) return null;
  const type = TYPES[path.extname(file)];
  if (!type) return null;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  return { open: () => createReadStream(file), type, etag: `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`, size: info.size };
}
