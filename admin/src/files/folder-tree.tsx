import { FolderOutlined, HomeOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { theme, Tree, type TreeDataNode } from 'antd';
import { useMemo, useState, type DragEvent } from 'react';
import type { FolderItem } from './file-info.ts';

/** The drag data type a file card carries: the file's id. */
export const FILE_DRAG_TYPE = 'application/x-tessera-file';

/** The root node's key: every file, and the place a file dropped there moves to (no folder). */
const ROOT = '';

/** Folders as tree nodes under their parents (a folder whose parent is unknown or a cycle hangs at the root). */
export function folderTree(folders: FolderItem[]): TreeDataNode[] {
  const byParent = new Map<string, FolderItem[]>();
  const known = new Set(folders.map((folder) => folder.id));
  for (const folder of folders) {
    const parent = folder.parent && known.has(folder.parent) && folder.parent !== folder.id ? folder.parent : ROOT;
    byParent.set(parent, [...(byParent.get(parent) ?? []), folder]);
  }
  const seen = new Set<string>();
  const build = (parent: string): TreeDataNode[] =>
    (byParent.get(parent) ?? [])
      .filter((folder) => !seen.has(folder.id) && seen.add(folder.id))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((folder) => ({ key: folder.id, title: folder.name, icon: <FolderOutlined />, children: build(folder.id) }));
  const tree = build(ROOT);
  // Folders caught in a parent cycle are reached from nowhere; show them at the root rather than lose them.
  for (const folder of folders) if (!seen.has(folder.id)) tree.push({ key: folder.id, title: folder.name, icon: <FolderOutlined />, children: [] });
  return tree;
}

/** The drag data type a folder node carries: the folder's id. */
export const FOLDER_DRAG_TYPE = 'application/x-tessera-folder';

/** Whether `folder` may move under `parent` (null: the root): not into itself nor one of its own subfolders. */
export function mayMoveFolder(folders: FolderItem[], folder: string, parent: string | null): boolean {
  const parentOf = new Map(folders.map((entry) => [entry.id, entry.parent]));
  const seen = new Set<string>();
  for (let current = parent; current !== null && current !== undefined && !seen.has(current); current = parentOf.get(current) ?? null) {
    if (current === folder) return false;
    seen.add(current);
  }
  return true;
}

/**
 * The library's folders as a tree under "All files". A click shows a folder. When `onDropFile` is given, a
 * file card dropped on a folder (or on "All files", the root) moves there; when `onMoveFolder` is given,
 * folders can be dragged onto another folder (or the root) too, and a drop that would put a folder inside
 * itself reaches `onMoveFolder` as well, for the library to refuse with its message.
 */
export function FolderTree({ folders, selected, onSelect, onDropFile, onMoveFolder }: { folders: FolderItem[]; selected: string | null; onSelect(folder: string | null): void; onDropFile?: (file: string, folder: string | null) => void; onMoveFolder?: (folder: string, parent: string | null) => void }) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const [over, setOver] = useState<string | null>(null);
  const treeData = useMemo<TreeDataNode[]>(() => [{ key: ROOT, title: translate('files.allFiles'), icon: <HomeOutlined />, children: folderTree(folders) }], [folders, translate]);
  // A new parent can turn a leaf into a branch: a new tree expands everything again.
  const shape = folders.map((folder) => `${folder.id}:${folder.parent ?? ''}`).join(',');
  const accepts = (event: DragEvent) => (onDropFile !== undefined && event.dataTransfer.types.includes(FILE_DRAG_TYPE)) || (onMoveFolder !== undefined && event.dataTransfer.types.includes(FOLDER_DRAG_TYPE));
  const dropHandlers = (key: string) =>
    onDropFile || onMoveFolder
      ? {
          onDragOver: (event: DragEvent) => {
            if (!accepts(event)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            setOver(key);
          },
          onDragLeave: () => setOver((current) => (current === key ? null : current)),
          onDrop: (event: DragEvent) => {
            const file = event.dataTransfer.getData(FILE_DRAG_TYPE);
            const folder = event.dataTransfer.getData(FOLDER_DRAG_TYPE);
            setOver(null);
            const target = key === ROOT ? null : key;
            if (file && onDropFile) {
              event.preventDefault();
              onDropFile(file, target);
            } else if (folder && onMoveFolder) {
              event.preventDefault();
              event.stopPropagation();
              onMoveFolder(folder, target);
            }
          },
        }
      : {};
  const dragHandlers = (key: string) =>
    onMoveFolder && key !== ROOT
      ? {
          draggable: true,
          onDragStart: (event: DragEvent) => {
            event.stopPropagation();
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData(FOLDER_DRAG_TYPE, key);
          },
        }
      : {};
  return (
    <Tree
      showIcon
      blockNode
      defaultExpandAll
      key={shape}
      selectedKeys={[selected ?? ROOT]}
      treeData={treeData}
      onSelect={(keys) => {
        if (keys.length === 0) return;
        const key = String(keys[0]);
        onSelect(key === ROOT ? null : key);
      }}
      titleRender={(node) => (
        <span
          {...dropHandlers(String(node.key))}
          {...dragHandlers(String(node.key))}
          data-testid={`folder-node-${node.key === ROOT ? 'root' : String(node.title)}`}
          style={{ display: 'inline-block', paddingInline: 2, borderRadius: token.borderRadiusSM, cursor: onMoveFolder && node.key !== ROOT ? 'grab' : undefined, outline: over === String(node.key) ? `2px dashed ${token.colorPrimary}` : undefined }}
        >
          {String(node.title)}
        </span>
      )}
      data-testid="folder-tree"
    />
  );
}
