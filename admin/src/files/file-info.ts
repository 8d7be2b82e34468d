/** A row of the files collection as the admin shows it. */
export interface FileItem {
  id: string;
  title: string | null;
  filename_download: string | null;
  type: string | null;
  filesize?: number | string | null;
  width?: number | null;
  height?: number | null;
  folder?: string | null;
  uploaded_on?: string | null;
  /** The version asset URLs name (`?modified=`), so browsers may keep them long. */
  modified_on?: string | null;
}

/** A folder (`/folders`): a tree through `parent`. */
export interface FolderItem {
  id: string;
  name: string;
  parent: string | null;
}

/** The fields read for showing a file. */
export const FILE_FIELDS = ['id', 'title', 'filename_download', 'type', 'filesize', 'width', 'height', 'folder', 'uploaded_on', 'modified_on'];

/** Whether the browser can show the file as an image. */
export function isImage(file: Pick<FileItem, 'type'> | null | undefined): boolean {
  return Boolean(file?.type?.startsWith('image/'));
}

/** The name to show: the title, else the download name, else the id. */
export function fileName(file: FileItem): string {
  return file.title || file.filename_download || file.id;
}

/** Folders as `{ value, label }` options, each under its parent ("Photos / 2024"), sorted by path. */
export function folderOptions(folders: FolderItem[]): { value: string; label: string }[] {
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const path = (folder: FolderItem): string => {
    const names = [folder.name];
    const seen = new Set([folder.id]);
    for (let parent = folder.parent ? byId.get(folder.parent) : undefined; parent && !seen.has(parent.id); parent = parent.parent ? byId.get(parent.parent) : undefined) {
      seen.add(parent.id);
      names.unshift(parent.name);
    }
    return names.join(' / ');
  };
  return folders.map((folder) => ({ value: folder.id, label: path(folder) })).sort((a, b) => a.label.localeCompare(b.label));
}
