import { afterAll, describe, expect, it } from 'vitest';
import { createModuleLog } from '../../helpers/module-log.ts';

/**
 * What answering `--help`, `--version` or a usage error may load: commander and the few CLI files that
 * declare the commands. Anything else is start-up time for a CI step or an edit loop (issue 36).
 */
const ALLOWED = new Set(['commander', 'cli/main.ts', 'cli/program.ts', 'cli/errors.ts', 'server/errors.ts', 'server/version.ts']);

describe('what the CLI loads to answer without doing anything', () => {
  const modules = createModuleLog();
  afterAll(() => modules.remove());

  it.each([
    [['--help'], 0, /Usage: tessera/],
    [['diff', '--help'], 0, /--from <path>/],
    [['--version'], 0, /^\d+\.\d+\.\d+/],
    [['diff', '--bogus'], 2, /unknown option '--bogus'/],
    [['start', '--workers', '1', 'extra'], 2, /too many arguments/],
  ])('tessera %j loads only commander and the command declarations', (args, code, output) => {
    // DB_URL points nowhere: a command that tried to connect would fail, not hang.
    const run = modules.run(args, { cwd: modules.dir, env: { DB_URL: 'postgres://nobody@127.0.0.1:1/none' } });
    expect(run.output).toMatch(output);
    expect(run.code).toBe(code);
    expect(run.loaded).toContain('cli/program.ts'); // the hook sees our own files
    expect(run.loaded.filter((name) => !ALLOWED.has(name))).toEqual([]);
  });
});
