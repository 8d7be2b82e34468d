import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generatedSnapshot } from '../../../bench/generated-snapshot.ts';
import { parseSnapshotDocument } from '../../../server/snapshot/load-snapshot.ts';
import { formatValue, renderSnapshot } from '../../../server/snapshot/serialize.ts';
import { sortKeysDeep } from '../../../server/snapshot/sort.ts';
import { writePlainYaml } from '../../../server/snapshot/yaml-writer.ts';

/** What snapshot files held before the fast writer: `yaml`'s output with the snapshot options. */
const byYaml = (value: unknown) => stringify(value, { aliasDuplicateObjects: false, lineWidth: 0, indentSeq: true });

const SNAPSHOTS = fileURLToPath(new URL('../../../snapshots/', import.meta.url));
const yamlFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? yamlFiles(path.join(folder, entry.name)) : entry.name.endsWith('.yaml') ? [path.join(folder, entry.name)] : []));

const STRINGS = [
  '', ' ', 'a', 'posts', 'Blog posts', 'x: y', 'x:y', 'a #b', 'a#b', '#6644FF', '*', '{{title}}', '[x]', 'a, b', '- a', '-a', '-', '?', '? a', 'a:', 'a ',
  ' a', "it's", 'say "hi"', `both ' and "`, 'null', 'Null', '~', 'true', 'False', 'yes', 'no', 'on', '0', '-1', '+1', '1.5', '.5', '1e5', '1E-3', '0x1F', '0o17',
  '.inf', '-.Inf', '.nan', '2026-01-01', '12:30', '3f2a9c1e-1b2c-4d5e-8f90-1234567890ab', '---', '--- a', '...', '%x', '@x', '`x`', '!x', '&x', '|', '>', 'a|b',
  'a\\b', 'é', 'line\nbreak', 'tab\there', '\u0007', 'a\u00a0b', '$CURRENT_USER', '$NOW(-1 day)', 'https://example.com/a?b=c#d',
];

describe('the fast snapshot YAML writer', () => {
  it('writes every file of the shipped snapshot exactly as yaml did', () => {
    const files = yamlFiles(SNAPSHOTS);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const value = sortKeysDeep(load(text, { schema: CORE_SCHEMA }));
      expect(writePlainYaml(value), file).toBe(text);
    }
  });

  it('writes a generated 50-collection project byte for byte as yaml does', () => {
    const document = parseSnapshotDocument(generatedSnapshot(50), 'generated');
    for (const [file, text] of renderSnapshot(document, 'yaml')) expect(text, file).toBe(byYaml(load(text, { schema: CORE_SCHEMA })));
  });

  it('matches yaml for awkward strings as values, keys and sequence items, or leaves them to it', () => {
    let handled = 0;
    for (const text of STRINGS) {
      const value = { [text || 'empty']: text, list: [text, { [text || 'empty']: [text] }], nested: { deeper: [[text, 1], [], {}] }, other: [null, true, -0, 2.5, 1e21] };
      const fast = writePlainYaml(value);
      if (fast !== null) handled++;
      expect(fast ?? byYaml(value), JSON.stringify(text)).toBe(byYaml(value));
      expect(formatValue(value, 'yaml')).toBe(byYaml(sortKeysDeep(value)));
    }
    expect(handled).toBeGreaterThan(STRINGS.length / 2);
  });
});
