import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { loadConfig } from '../../server/config/index.ts';
import { readManifest } from '../../server/extensions/manifest.ts';
import { packageVersion } from '../../server/version.ts';
import { openSystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';
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

/** `tessera extensions create <type> <name>`: a TypeScript starter in EXTENSIONS_PATH/<name>. */
export async function runCreateExtension(type: string, name: string): Promise<void> {
  if (!Object.hasOwn(STARTERS, type)) throw new UsageError(`type must be one of ${Object.keys(STARTERS).join(', ')} (admin extensions come with the admin's extension SDK)`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new UsageError('name must be lower-case letters, digits and -');
  const config = loadConfig(process.env);
  const folder = path.join(config.extensions.path, name);
  if (await exists(folder)) throw new UsageError(`${folder} exists already`);
  const starter = STARTERS[type as keyof typeof STARTERS];
  const [major, minor] = packageVersion().split('.');
  const entry = type === 'operation' ? { path: { app: 'dist/app.js', api: 'dist/api.js' }, source: { app: 'src/app.ts', api: 'src/api.ts' } } : { path: 'dist/index.js', source: 'src/index.ts' };
  const manifest = { name, version: '1.0.0', private: true, type: 'module', 'tessera:extension': { type, ...entry, host: `^${major}.${minor}.0` } };
  await mkdir(path.join(folder, 'src'), { recursive: true });
  await writeFile(path.join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, text] of Object.entries(starter)) await writeFile(path.join(folder, file), text.replaceAll('{{name}}', name));
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
 * Compiles src/**\/*.ts into dist/**\/*.js with Node's own type stripping (the project's toolchain: no
 * bundler), rewriting relative `.ts` imports to `.js`. Returns how many files it wrote.
 */
async function build(folder: string): Promise<number> {
  const files = (await readdir(path.join(folder, 'src'), { recursive: true })).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  for (const file of files) {
    const source = await readFile(path.join(folder, 'src', file), 'utf8');
    const code = stripTypeScriptTypes(source, { mode: 'transform' }).replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
    const target = path.join(folder, 'dist', file.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, code);
  }
  return files.length;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
