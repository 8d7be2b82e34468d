import { describe, expect, it } from 'vitest';
import { assetUrl } from '../../../admin/src/app/project-settings.tsx';
import { FILE_FIELDS, fileName, folderOptions, isImage } from '../../../admin/src/files/file-info.ts';

describe('file library helpers', () => {
  it('names folders by their path and sorts them, surviving a cycle', () => {
    const folders = [
      { id: 'b', name: '2024', parent: 'a' },
      { id: 'a', name: 'Photos', parent: null },
      { id: 'c', name: 'Docs', parent: null },
      { id: 'x', name: 'Loop', parent: 'y' },
      { id: 'y', name: 'Back', parent: 'x' },
    ];
    expect(folderOptions(folders).map((option) => option.label)).toEqual(['Back / Loop', 'Docs', 'Loop / Back', 'Photos', 'Photos / 2024']);
  });

  it('tells images apart and picks a name', () => {
    expect(isImage({ type: 'image/png' })).toBe(true);
    expect(isImage({ type: 'text/plain' })).toBe(false);
    expect(fileName({ id: 'f1', title: null, filename_download: 'a.png', type: null })).toBe('a.png');
    expect(fileName({ id: 'f1', title: '', filename_download: null, type: null })).toBe('f1');
  });

  it('names the file version in asset URLs when it is known, so browsers may keep them long', () => {
    expect(FILE_FIELDS).toContain('modified_on');
    expect(assetUrl('f1', { width: 96, fit: 'cover' }, '2026-11-26T21:00:00.000Z')).toBe('/assets/f1?width=96&fit=cover&modified=2026-11-26T21%3A00%3A00.000Z');
    expect(assetUrl('f1', {}, '2026-11-26T21:00:00.000Z')).toBe('/assets/f1?modified=2026-11-26T21%3A00%3A00.000Z');
    expect(assetUrl('f1', { width: 10 })).toBe('/assets/f1?width=10');
    expect(assetUrl('f1', {}, null)).toBe('/assets/f1');
  });
});
