import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** PATH without the project's node_modules/.bin: npm then runs on the system's Node, as for a newcomer. */
const systemPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((entry) => !entry.includes(`${path.sep}node_modules${path.sep}`))
  .join(path.delimiter);

describe('npx tessera on the system Node', () => {
  // A fresh npm cache: npx installs the project's own bin into it, which is when npm checks engines.
  const cache = mkdtempSync(path.join(tmpdir(), 'tessera-npm-cache-'));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('prints the answer and nothing from npm', { timeout: 120_000 }, () => {
    const result = spawnSync('npx', ['tessera', '--version'], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: systemPath, HOME: process.env.HOME, npm_config_cache: cache, npm_config_offline: 'true' },
    });
    expect(result.stderr).not.toMatch(/npm (warn|WARN)/);
    expect(result.stderr).not.toContain('EBADENGINE');
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.status).toBe(0);
  });
});
