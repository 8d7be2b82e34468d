import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, TESSERA_BIN } from '../../helpers/cli.ts';

/**
 * What answering `--help`, `--version` or a usage error may load: commander and the few CLI files that
 * declare the commands. Anything else is start-up time for a CI step or an edit loop (issue 36).
 */
const ALLOWED = new Set(['commander', 'cli/main.ts', 'cli/program.ts', 'cli/errors.ts', 'server/errors.ts', 'server/version.ts']);

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

describe('what the CLI loads to answer without doing anything', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-help-'));
  const hook = path.join(dir, 'hook.mjs');
  writeFileSync(hook, HOOK);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the CLI with the hook; returns its exit code, output and the modules it loaded. */
  function loadedBy(args: string[]): { code: number | null; output: string; loaded: string[] } {
    const log = path.join(dir, `loaded-${args.join('_').replace(/\W/g, '')}.txt`);
    writeFileSync(log, '');
    // DB_URL points nowhere: a command that tried to connect would fail, not hang.
    const result = spawnSync(process.execPath, ['--import', hook, TESSERA_BIN, ...args], { cwd: dir, env: cliEnv({ LOADED_LOG: log, DB_URL: 'postgres://nobody@127.0.0.1:1/none' }), encoding: 'utf8' });
    return { code: result.status, output: result.stdout + result.stderr, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  }

  it.each([
    [['--help'], 0, /Usage: tessera/],
    [['diff', '--help'], 0, /--from <path>/],
    [['--version'], 0, /^\d+\.\d+\.\d+/],
    [['diff', '--bogus'], 2, /unknown option '--bogus'/],
    [['start', '--workers', '1', 'extra'], 2, /too many arguments/],
  ])('tessera %j loads only commander and the command declarations', (args, code, output) => {
    const run = loadedBy(args);
    expect(run.output).toMatch(output);
    expect(run.code).toBe(code);
    expect(run.loaded).toContain('cli/program.ts'); // the hook sees our own files
    expect(run.loaded.filter((name) => !ALLOWED.has(name))).toEqual([]);
  });
});
