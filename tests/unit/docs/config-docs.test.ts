import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLE_NAMES } from '../../../server/config/index.ts';

describe('docs/config.md', () => {
  const docs = readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8');

  it.each(VARIABLE_NAMES)('documents %s', (name) => {
    expect(docs).toContain(`| \`${name}\` |`);
  });
});
