import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { readManifest, type ExtensionManifest } from './manifest.ts';

/** Where an extension was found: a folder of EXTENSIONS_PATH, or a package the project depends on. */
export type ExtensionSource = 'local' | 'module';

/** An extension on disk: its manifest, or why it has none. */
export interface FoundExtension {
  /** The folder name (local) or package name (module): tessera_extensions.folder. */
  folder: string;
  source: ExtensionSource;
  /** Absolute path of the extension's folder. */
  dir: string;
  manifest: ExtensionManifest | null;
  error: string | null;
}

/** Package names that are extensions when the project depends on them. */
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?(directus|tessera)-extension-[a-z0-9-._~]+$/;

/**
 * Every extension of the project: each folder of `extensionsPath` with a package.json, then each package
 * named `directus-extension-*` or `tessera-extension-*` (optionally scoped) that the project's package.json
 * lists, from `projectDir/node_modules`. A folder that cannot be read is reported with its error.
 */
export async function discoverExtensions(extensionsPath: string, projectDir: string): Promise<FoundExtension[]> {
  const found: FoundExtension[] = [];
  for (const name of (await entries(extensionsPath)).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    found.push(await inspect(name, 'local', path.join(extensionsPath, name)));
  }
  for (const name of await dependencyNames(projectDir)) {
    if (!PACKAGE_NAME.test(name)) continue;
    const dir = path.join(projectDir, 'node_modules', name);
    found.push(await inspect(name, 'module', await realpath(dir).catch(() => dir)));
  }
  return found;
}

async function inspect(folder: string, source: ExtensionSource, dir: string): Promise<FoundExtension> {
  try {
    return { folder, source, dir, manifest: await readManifest(dir), error: null };
  } catch (error) {
    return { folder, source, dir, manifest: null, error: (error as Error).message };
  }
}

async function entries(folder: string): Promise<string[]> {
  try {
    const items = await readdir(folder, { withFileTypes: true });
    return items.filter((item) => item.isDirectory() || item.isSymbolicLink()).map((item) => item.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function dependencyNames(projectDir: string): Promise<string[]> {
  let pkg: { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(await readFile(path.join(projectDir, 'package.json'), 'utf8')) as typeof pkg;
  } catch {
    return [];
  }
  return [...new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})])].sort();
}
