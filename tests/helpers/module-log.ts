import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliEnv, TESSERA_BIN } from './cli.ts';

// Records our own files and the package of every module the CLI process loads, CommonJS and ESM alike.
const HOOK = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
const seen = new Set();
registerHooks({ load(url, context, next) {
  const match = url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/) ?? url.match(/\\/((?:server|cli|migrations)\\/[^?]+\\.ts)$/);
  if (match && !seen.has(match[1])) { seen.add(match[1]); appendFileSync(process.env.LOADED_LOG, match[1] + '\\n'); }
  return next(url, context);
} });
`;

/** A CLI run's exit code, output, and the modules it loaded: packages by name, our files by path (`cli/main.ts`). */
export interface LoggedRun {
  code: number | null;
  output: string;
  loaded: string[];
}

/** Runs `tessera` with a module-load hook, for tests of what a command loads (issue 36: start-up time). */
export function createModuleLog(): { dir: string; run(args: string[], options: { cwd: string; env?: Record<string, string> }): LoggedRun; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-module-log-'));
  const hook = path.join(dir, 'hook.mjs');
  writeFileSync(hook, HOOK);
  let runs = 0;
  return {
    /** A temporary folder (removed by `remove`) that can serve as the working folder. */
    dir,
    run(args, options) {
      const log = path.join(dir, `loaded-${++runs}.txt`);
      writeFileSync(log, '');
      const result = spawnSync(process.execPath, ['--import', hook, TESSERA_BIN, ...args], { cwd: options.cwd, env: cliEnv({ ...options.env, LOADED_LOG: log }), encoding: 'utf8' });
      return { code: result.status, output: result.stdout + result.stderr, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
