import type { Readable } from 'node:stream';
import type { Config } from '../../config/index.ts';
import { extractMetadata } from '../metadata/extract-metadata.ts';
import type { StorageDriver } from '../storage/storage-driver.ts';
import { InspectStream } from './inspect-stream.ts';
import { ownValue } from '../../own-keys.ts';

/** Server-managed columns of a stored file, as tessera_files holds them. */
export interface StoredContent {
  storage: string;
  filename_disk: string;
  type: string;
  charset: string | null;
  filesize: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  metadata: Record<string, unknown> | null;
}

/** File extensions of text types file-type does not know. */
const TEXT_EXTENSIONS: Record<string, string> = { 'text/plain': 'txt', 'text/csv': 'csv', 'application/json': 'json', 'text/html': 'html', 'text/markdown': 'md', 'application/xml': 'xml', 'text/xml': 'xml', 'image/svg+xml': 'svg' };

/** `.ext` for a type: from the sniffed signature, a known text type, or the client's name as a last resort. */
function extensionFor(type: string, sniffedExtension: string | null, filename: string): string {
  if (sniffedExtension) return `.${sniffedExtension}`;
  const text = ownValue(TEXT_EXTENSIONS, type);
  if (text) return `.${text}`;
  const given = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1]?.toLowerCase();
  return given && type.startsWith('text/') ? `.${given}` : '';
}

export interface StoreUploadOptions {
  config: Config;
  /** Base of the object key (the file id, plus a suffix when replacing content under the same name). */
  keyBase: string;
  /** The key the file has now, which a replacement must not overwrite before it succeeds. */
  avoidKey?: string | null;
  filename: string;
  declaredType?: string;
  /** Upload field name, for error messages. */
  field: string;
}

/**
 * Streams `source` into storage: the type is sniffed from the first bytes (and checked against the
 * allow-list) before anything is written, the size is limited while streaming, and metadata is read
 * from the stored object. On any failure the stored object is removed and the error rethrown.
 */
export async function storeUpload(driver: StorageDriver, source: Readable, options: StoreUploadOptions): Promise<StoredContent> {
  const { config } = options;
  const inspect = new InspectStream({ maxSize: config.files.maxUploadSize, allowedTypes: config.files.mimeTypeAllowList, declaredType: options.declaredType, field: options.field });
  source.once('error', (error) => inspect.destroy(error));
  source.pipe(inspect);
  let key: string | null = null;
  try {
    const sniffed = await inspect.sniffed;
    key = `${options.keyBase}${extensionFor(sniffed.type, sniffed.extension, options.filename)}`;
    if (key === options.avoidKey) key = `${options.keyBase}-${Date.now().toString(36)}${extensionFor(sniffed.type, sniffed.extension, options.filename)}`;
    await driver.write(key, inspect, sniffed.type);
    const content = await inspect.result;
    const maxPixels = config.assets.transformMaxDimension ** 2;
    const facts = await extractMetadata(driver, key, content.type, maxPixels, options.field);
    return { storage: driver.location, filename_disk: key, type: content.type, charset: content.charset, filesize: content.size, ...facts };
  } catch (error) {
    // The inspector goes now; the source is its owner's to drain (multipart) or destroy (imports).
    source.unpipe(inspect);
    inspect.destroy();
    if (key) await driver.delete(key).catch(() => undefined);
    // The inspector's own error (too large, wrong type) is the cause; a driver's failure follows from it.
    throw inspect.failure ?? error;
  }
}
