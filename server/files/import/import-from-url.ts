import type { AppContext } from '../../app-context.ts';
import type { Accountability } from '../../auth/accountability.ts';
import { InvalidPayloadError, isTesseraError } from '../../errors.ts';
import { parseAllowList } from '../../outbound/address-policy.ts';
import type { ItemKey } from '../../services/items/items-service.ts';
import { assertClientFields } from '../file-fields.ts';
import { FilesService } from '../files-service.ts';
import { fetchRemote } from './fetch-remote.ts';

/**
 * Downloads `url` through the outbound guard (FILES_IMPORT_ALLOWED_HOSTS, OUTBOUND_ALLOWED_HOSTS, redirects
 * re-checked) and stores it as a new file with `data` as its row, as the caller; returns the new file's id.
 * POST /files/import and the MCP `files` tool share it.
 */
export async function importFromUrl(app: AppContext, accountability: Accountability, url: string, data: Record<string, unknown>): Promise<ItemKey> {
  const files = new FilesService(app, accountability);
  // Check before downloading: the caller must be allowed to create files, and may not set server-managed fields.
  await files.assertCanCreate();
  assertClientFields(data);
  const { files: filesConfig, outbound } = app.config;
  const remote = await fetchRemote(url, { allowedHosts: filesConfig.importAllowedHosts, outbound: parseAllowList(outbound.allowedHosts), timeoutMs: filesConfig.importTimeoutMs, maxSize: filesConfig.maxUploadSize });
  try {
    return await files.createFromStream(remote.stream, { filename: remote.filename, declaredType: remote.declaredType, payload: data, field: 'url' });
  } catch (error) {
    // Whatever failed, the download is closed now (its timer with it), not left to error later.
    remote.stream.destroy();
    if (isTesseraError(error)) throw error;
    throw new InvalidPayloadError(`Could not fetch "url": ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}.`, { field: 'url' });
  }
}
