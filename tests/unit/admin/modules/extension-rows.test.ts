import { describe, expect, it } from 'vitest';
import { bundleIds, extensionName, extensionRows, failedToLoad, type ExtensionRecord } from '../../../../admin/src/modules/extensions/extension-rows.ts';

function extension(id: string, name: string | null, extra: Partial<ExtensionRecord> = {}): ExtensionRecord {
  const bundle = extra.bundle ?? null;
  return {
    id,
    bundle,
    schema: name === null ? null : { type: 'hook', name, version: '1.0.0', local: true },
    meta: { enabled: true, folder: name ?? `folder-${id}`, source: 'local', bundle },
    status: 'loaded',
    error: null,
    ...extra,
  };
}

describe('extension rows', () => {
  it('nests bundle entries under their bundle, each level by name', () => {
    const rows = extensionRows([
      extension('1', 'zeta'),
      extension('2', 'kit-b', { bundle: '3' }),
      extension('3', 'bundle-kit'),
      extension('4', 'kit-a', { bundle: '3' }),
      extension('5', 'alpha'),
    ]);
    expect(rows.map((row) => [extensionName(row), row.children?.map(extensionName)])).toEqual([
      ['alpha', undefined],
      ['bundle-kit', ['kit-a', 'kit-b']],
      ['zeta', undefined],
    ]);
    expect(bundleIds(rows)).toEqual(['3']);
  });

  it('keeps an entry whose bundle is not listed at the top level', () => {
    expect(extensionRows([extension('2', 'orphan', { bundle: 'gone' })]).map(extensionName)).toEqual(['orphan']);
  });

  it('names an extension without a manifest by its folder, and flags load failures', () => {
    const broken = extension('9', null, { status: 'error', error: 'no manifest' });
    expect(extensionName(broken)).toBe('folder-9');
    expect(failedToLoad(broken)).toBe(true);
    expect(failedToLoad(extension('8', 'x', { status: 'incompatible' }))).toBe(true);
    expect(failedToLoad(extension('7', 'y', { status: 'disabled' }))).toBe(false);
  });

  it('shows a PATCH answer in place of the listed row', () => {
    const listed = [extension('1', 'greet')];
    const answer = { ...listed[0]!, meta: { ...listed[0]!.meta, enabled: false }, status: 'disabled' as const };
    const [row] = extensionRows(listed, new Map([['1', answer]]));
    expect(row).toMatchObject({ status: 'disabled', meta: { enabled: false } });
  });
});
