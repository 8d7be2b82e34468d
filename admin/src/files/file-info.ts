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
  description?: string | null;
  tags?: string[] | null;
  location?: string | null;
  /** The point crops keep in view, in pixels of the upright image (docs/files.md). */
  focal_point_x?: number | null;
  focal_point_y?: number | null;
  uploaded_by?: string | { id: string; first_name?: string | null; last_name?: string | null; email?: string | null } | null;
}

/** The fields the file page reads: the library's, the editable metadata, and who uploaded it. */
export const FILE_DETAIL_FIELDS = [
  'id', 'title', 'filename_download', 'type', 'filesize', 'width', 'height', 'folder', 'uploaded_on', 'modified_on',
  'description', 'tags', 'location', 'focal_point_x', 'focal_point_y', 'uploaded_by.id', 'uploaded_by.first_name', 'uploaded_by.last_name', 'uploaded_by.email',
];

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
