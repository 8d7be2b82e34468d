import { describe, expect, it } from 'vitest';
import { assetUrl } from '../../../admin/src/app/project-settings.tsx';
import { FILE_FIELDS, fileName, folderOptions, isImage } from '../../../admin/src/files/file-info.ts';
import { fileReferences } from '../../../admin/src/files/file-usage.ts';
import { folderTree, mayMoveFolder } from '../../../admin/src/files/folder-tree.tsx';
import { pointAt } from '../../../admin/src/files/focal-point-picker.tsx';

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

  it('builds the folder tree under parents, by name, keeping folders caught in a cycle', () => {
    const tree = folderTree([
      { id: 'b', name: '2024', parent: 'a' },
      { id: 'a', name: 'Photos', parent: null },
      { id: 'c', name: 'Docs', parent: null },
      { id: 'd', name: 'Orphan', parent: 'gone' },
      { id: 'x', name: 'Loop', parent: 'y' },
      { id: 'y', name: 'Back', parent: 'x' },
    ]);
    const shape = (nodes: typeof tree): unknown[] => nodes.map((node) => [node.title, shape(node.children ?? [])]);
    expect(shape(tree)).toEqual([['Docs', []], ['Orphan', []], ['Photos', [['2024', []]]], ['Loop', []], ['Back', []]]);
  });

  it('lets a folder move anywhere but into itself or its own subfolders', () => {
    const folders = [
      { id: 'a', name: 'Photos', parent: null },
      { id: 'b', name: '2024', parent: 'a' },
      { id: 'c', name: 'June', parent: 'b' },
      { id: 'd', name: 'Docs', parent: null },
      { id: 'x', name: 'Loop', parent: 'y' },
      { id: 'y', name: 'Back', parent: 'x' },
    ];
    expect(mayMoveFolder(folders, 'b', 'd')).toBe(true);
    expect(mayMoveFolder(folders, 'c', null)).toBe(true);
    expect(mayMoveFolder(folders, 'd', 'c')).toBe(true);
    expect(mayMoveFolder(folders, 'a', 'a')).toBe(false);
    expect(mayMoveFolder(folders, 'a', 'c')).toBe(false);
    expect(mayMoveFolder(folders, 'b', 'c')).toBe(false);
    // A cycle already stored ends the walk instead of looping.
    expect(mayMoveFolder(folders, 'd', 'x')).toBe(true);
  });

  it('finds the file fields and galleries of content collections, not system ones', () => {
    const meta = (one_field: string | null, junction_field: string | null) => ({ one_field, junction_field, sort_field: null, one_collection_field: null, one_allowed_collections: null, one_deselect_action: 'nullify' as const });
    const references = fileReferences([
      { collection: 'articles', field: 'cover', related_collection: 'tessera_files', meta: meta(null, null) },
      { collection: 'articles_files', field: 'tessera_files_id', related_collection: 'tessera_files', meta: meta(null, 'articles_id') },
      { collection: 'articles_files', field: 'articles_id', related_collection: 'articles', meta: meta('gallery', 'tessera_files_id') },
      { collection: 'tessera_users', field: 'avatar', related_collection: 'tessera_files', meta: null },
      { collection: 'articles', field: 'author', related_collection: 'authors', meta: meta(null, null) },
    ]);
    expect(references.map((reference) => [reference.collection, reference.field, reference.filter('f1')])).toEqual([
      ['articles', 'cover', { cover: { _eq: 'f1' } }],
      ['articles', 'gallery', { gallery: { tessera_files_id: { _eq: 'f1' } } }],
    ]);
  });

  it('turns a click on the shown picture into pixels of the image, held inside it', () => {
    expect(pointAt({ x: 100, y: 150 }, { width: 400, height: 200 }, { width: 640, height: 480 })).toEqual({ x: 160, y: 360 });
    expect(pointAt({ x: -5, y: 500 }, { width: 400, height: 200 }, { width: 640, height: 480 })).toEqual({ x: 0, y: 480 });
  });
});
