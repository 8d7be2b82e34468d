import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

/** The admin app's folder (sources, index.html, vite.config.ts). */
export const ADMIN_ROOT = fileURLToPath(new URL('../admin/', import.meta.url));

/** Where the built app lives (served at /admin by the admin controller). */
export const ADMIN_DIST_DIR = path.join(ADMIN_ROOT, 'dist');

/** The inputs of the build: when any is newer than the built index.html, the build is stale. */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'public'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when admin/dist is missing or older than any admin source. */
export function isAdminBuildStale(root: string = ADMIN_ROOT): boolean {
  const index = path.join(root, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

/** Sizes of what the browser loads before the first screen: the entry script and its preloaded chunks. */
export interface InitialSize {
  files: string[];
  bytes: number;
  gzipBytes: number;
}

/** Reads index.html for its entry script and module preloads and sums their sizes. */
export function measureInitialJs(distDir: string = ADMIN_DIST_DIR): InitialSize {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/admin\/([^"]+\.js)"/g)].map((match) => match[1] as string);
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of new Set(files)) {
    const content = readFileSync(path.join(distDir, file));
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { files: [...new Set(files)], bytes, gzipBytes };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * Runs Vite's build in a short-lived child process. In-process, Vite, Rollup and the React plugin left the
 * server holding about 550 MB it never gave back (a first `npm start` idled at ~780 MB instead of ~240 MB:
 * docs/operations.md). NODE_ENV is production for the build whatever the caller's (tests run with test).
 */
async function runViteBuild(root: string, outDir: string): Promise<void> {
  // The eval resolves 'vite' from its working directory (admin/, then the project's node_modules).
  const script = `const { build } = await import('vite');
await build({ configFile: process.argv[1], root: process.argv[2], logLevel: 'warn', build: { outDir: process.argv[3], emptyOutDir: true } });`;
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, path.join(root, 'vite.config.ts'), root, outDir], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 16 * 2 ** 20,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(stderr?.trim() || message, { cause: error });
  }
}

/**
 * Builds the admin into a temporary folder, then swaps it in, so a server that is serving the old build
 * never sees a half-written one. Returns the initial JS size.
 */
export async function buildAdmin(root: string = ADMIN_ROOT): Promise<InitialSize> {
  const staging = path.join(root, `.dist-${process.pid}-${Date.now()}`);
  try {
    await runViteBuild(root, staging);
    const dist = path.join(root, 'dist');
    const old = path.join(root, `.dist-old-${process.pid}-${Date.now()}`);
    try {
      if (existsSync(dist)) renameSync(dist, old);
      renameSync(staging, dist);
    } catch (error) {
      // Another process swapped its own fresh build in at the same moment: keep that one.
      if (!existsSync(path.join(dist, 'index.html'))) throw error;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return measureInitialJs(path.join(root, 'dist'));
}

/** Builds the admin when it is missing or stale; a failed build leaves the placeholder page in place. */
export async function ensureAdminBuilt(log: (line: string) => void, root: string = ADMIN_ROOT): Promise<void> {
  if (!existsSync(path.join(root, 'src'))) return;
  if (!isAdminBuildStale(root)) return;
  log('Building the admin app (admin/ changed or was never built)…');
  const started = Date.now();
  try {
    const size = await buildAdmin(root);
    log(`Admin app built in ${((Date.now() - started) / 1000).toFixed(1)} s; initial JS ${kB(size.bytes)} (gzip ${kB(size.gzipBytes)}) in ${size.files.length} files.`);
  } catch (error) {
    log(`The admin app could not be built: ${(error as Error).message}. /admin shows a placeholder page until it is.`);
  }
}
