import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { loadConfig } from '../../server/config/index.ts';
import { APP_TYPES, readManifest } from '../../server/extension-packages/manifest.ts';
import { packageVersion } from '../../server/version.ts';
import { openSystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { APP_STARTERS } from '../extension-starters/app-starters.ts';
import { buildAppEntry } from '../extension-starters/build-app-entry.ts';
import { STARTERS } from '../extension-starters/starters.ts';
import { say } from '../prompts.ts';

/** `tessera extensions list`: what was found, and whether each loaded (as GET /extensions reports it). */
export async function runListExtensions(options: { json?: boolean }): Promise<void> {
  const context = await openSystemContext(loadConfig(process.env));
  try {
    await context.app.extensions.load({ cli: true });
    const listed = context.app.extensions.list().map(({ id, bundle, folder, source, type, name, version, enabled, status, error }) => ({ id, bundle, folder, source, type, name, version, enabled, status, error }));
    if (options.json) {
      process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
      return;
    }
    if (listed.length === 0) say.info('No extensions.');
    for (const extension of listed) {
      const line = `${extension.bundle ? '  ' : ''}${extension.name}  ${extension.type ?? '?'}  ${extension.version ?? ''}  ${extension.source}  ${extension.status}`;
      say.info(extension.error ? `${line}: ${extension.error}` : line);
    }
  } finally {
    await context.close();
  }
}

/** The starters of every kind `create` knows: server kinds (type stripping) and the admin's (bundled). */
const ALL_STARTERS: Record<string, Record<string, string>> = { ...STARTERS, ...APP_STARTERS };

/** `tessera extensions create <type> <name>`: a TypeScript starter in EXTENSIONS_PATH/<name>, built once. */
export async function runCreateExtension(type: string, name: string): Promise<void> {
  if (!Object.hasOwn(ALL_STARTERS, type)) throw new UsageError(`type must be one of ${Object.keys(ALL_STARTERS).join(', ')}`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new UsageError('name must be lower-case letters, digits and -');
  const config = loadConfig(process.env);
  const folder = path.join(config.extensions.path, name);
  if (await exists(folder)) throw new UsageError(`${folder} exists already`);
  const [major, minor] = packageVersion().split('.');
  const entry =
    type === 'operation'
      ? { path: { app: 'dist/app.js', api: 'dist/api.js' }, source: { app: 'src/app.ts', api: 'src/api.ts' } }
      : Object.hasOwn(APP_STARTERS, type)
        ? { path: 'dist/index.js', source: 'src/index.tsx' }
        : { path: 'dist/index.js', source: 'src/index.ts' };
  const manifest = { name, version: '1.0.0', private: true, type: 'module', 'tessera:extension': { type, ...entry, host: `^${major}.${minor}.0` } };
  await mkdir(path.join(folder, 'src'), { recursive: true });
  await writeFile(path.join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const title = name.replace(/-/g, ' ').replace(/^./, (letter) => letter.toUpperCase());
  for (const [file, text] of Object.entries(ALL_STARTERS[type]!)) await writeFile(path.join(folder, file), text.replaceAll('{{name}}', name).replaceAll('{{title}}', title));
  await build(folder);
  say.success(`Created the ${type} ${name} in ${folder}. Edit src/, then run \`tessera extensions build\`.`);
}

/** `tessera extensions build [name]`: every extension folder with a src/ (or the named one). */
export async function runBuildExtensions(name?: string): Promise<void> {
  const config = loadConfig(process.env);
  const names = name ? [name] : (await readdir(config.extensions.path).catch(() => [] as string[])).filter((entry) => !entry.startsWith('.'));
  let built = 0;
  for (const entry of names) {
    const folder = path.join(config.extensions.path, entry);
    if (!(await exists(path.join(folder, 'src')))) {
      if (name) throw new UsageError(`${folder} has no src/ folder`);
      continue;
    }
    await readManifest(folder);
    built += await build(folder);
    say.info(`Built ${entry}`);
  }
  if (built === 0 && !name) say.info('Nothing to build: no extension folder has a src/ folder.');
}

/**
 * Builds one extension folder. Admin entries (`source` of an admin kind, or the `app` side of a bundle or
 * operation written in TSX/JSX) are bundled into one ES module (build-app-entry.ts); server code, every other
 * src/**\/*.ts, is compiled file by file with Node's own type stripping (the toolchain Tessera runs on, no
 * bundler), relative `.ts` imports rewritten to `.js`. Returns how many outputs it wrote.
 */
async function build(folder: string): Promise<number> {
  const { type, source, path: output } = await describedEntries(folder);
  const appEntry = (APP_TYPES as readonly string[]).includes(type) ? { source: asString(source), output: asString(output) } : { source: sideOf(source, 'app'), output: sideOf(output, 'app') };
  const bundled = appEntry.source && appEntry.output && (Object.hasOwn(APP_STARTERS, type) || /\.[jt]sx$/.test(appEntry.source)) ? appEntry : null;
  if (bundled) await buildAppEntry(folder, bundled.source!, bundled.output!);
  const files = (await readdir(path.join(folder, 'src'), { recursive: true })).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  // An admin kind's .ts files are part of its bundle.
  const stripped = bundled && (APP_TYPES as readonly string[]).includes(type) ? [] : files.filter((file) => !bundled || path.join('src', file) !== path.normalize(bundled.source!));
  for (const file of stripped) {
    const text = await readFile(path.join(folder, 'src', file), 'utf8');
    const code = stripTypeScriptTypes(text, { mode: 'transform' }).replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
    const target = path.join(folder, 'dist', file.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, code);
  }
  return stripped.length + (bundled ? 1 : 0);
}

/** The extension's `type`, `source` and `path` as its package.json writes them (source is not kept by readManifest). */
async function describedEntries(folder: string): Promise<{ type: string; source: unknown; path: unknown }> {
  const pkg = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
  const described = pkg['tessera:extension'] ?? pkg['directus:extension'] ?? {};
  return { type: String(described.type ?? ''), source: described.source, path: described.path };
}

const asString = (value: unknown) => (typeof value === 'string' ? value : null);
const sideOf = (value: unknown, side: 'app' | 'api') => (value && typeof value === 'object' ? asString((value as Record<string, unknown>)[side]) : null);

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
