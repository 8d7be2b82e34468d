import { describe, expect, it } from 'vitest';
import { fileName, folderOptions, isImage } from '../../../admin/src/files/file-info.ts';

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
});
