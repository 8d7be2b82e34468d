import { apiData } from '../providers/http-client.ts';
import { FILE_FIELDS, type FileItem } from './file-info.ts';

/**
 * Uploads files with `POST /files` (multipart, one part per file). Text fields go before the file parts,
 * since the API applies a field to the files that follow it (docs/files.md). One request, one transaction.
 */
export async function uploadFiles(files: File[], fields: { folder?: string | null } = {}): Promise<FileItem[]> {
  const body = new FormData();
  if (fields.folder) body.append('folder', fields.folder);
  for (const file of files) body.append('file', file, file.name);
  const created = await apiData<FileItem | FileItem[]>('/files', { method: 'POST', body, query: { fields: FILE_FIELDS } });
  return Array.isArray(created) ? created : created ? [created] : [];
}
