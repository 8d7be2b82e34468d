import { API_URL, apiData, toHttpError, toQueryString } from '../providers/http-client.ts';
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

/**
 * Sends a multipart body and reports the share of it sent (0–1). fetch cannot report an upload's
 * progress, XMLHttpRequest can; the session cookie goes along as with every same-origin call.
 */
export function sendWithProgress<T>(method: 'POST' | 'PATCH', path: string, body: FormData, onProgress: (sent: number) => void, query: Record<string, string[] | string> = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, `${API_URL}${path}${toQueryString(query)}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        parsed = request.responseText;
      }
      if (request.status >= 200 && request.status < 300) resolve(((parsed as { data?: T } | null)?.data ?? null) as T);
      else reject(toHttpError(request.status, parsed, request.statusText || `HTTP ${request.status}`));
    };
    request.onerror = () => reject({ message: 'The server cannot be reached.', statusCode: 0 });
    request.send(body);
  });
}

/** Uploads one file into `folder`, reporting progress; answers the created file. */
export function uploadWithProgress(file: File, folder: string | null, onProgress: (sent: number) => void): Promise<FileItem> {
  const body = new FormData();
  if (folder) body.append('folder', folder);
  body.append('file', file, file.name);
  return sendWithProgress<FileItem>('POST', '/files', body, onProgress, { fields: FILE_FIELDS });
}

/**
 * Replaces a file's content keeping its id (`PATCH /files/:id`, multipart): the row's metadata stays, the
 * new bytes are served at the same asset URL and old transformations are dropped (docs/files.md).
 */
export function replaceFile(id: string, file: File, onProgress: (sent: number) => void, fields: string[] = FILE_FIELDS): Promise<FileItem> {
  const body = new FormData();
  body.append('file', file, file.name);
  return sendWithProgress<FileItem>('PATCH', `/files/${encodeURIComponent(id)}`, body, onProgress, { fields });
}
