import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { StorageLocationConfig } from '../../config/storage-locations.ts';
import { lazyModule } from '../../lazy-module.ts';
import { assertSafeKey, type ByteRange, type StorageDriver } from './storage-driver.ts';

type S3Location = Extract<StorageLocationConfig, { driver: 's3' }>;

// The AWS SDK is some 300 modules: loaded when a bucket is first used, not when the server starts.
const loadS3 = lazyModule(() => import('@aws-sdk/client-s3'));
const loadUpload = lazyModule(async () => (await import('@aws-sdk/lib-storage')).Upload);

function isMissing(error: unknown, s3: typeof import('@aws-sdk/client-s3')): boolean {
  return error instanceof s3.S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

/**
 * An S3-compatible bucket, so several server instances share the same files. Uploads stream through
 * lib-storage's multipart Upload; an aborted upload leaves no object.
 */
export class S3StorageDriver implements StorageDriver {
  readonly location: string;
  readonly #config: S3Location;
  readonly #bucket: string;
  readonly #root: string;
  #client: S3Client | null = null;

  constructor(config: S3Location) {
    this.location = config.name;
    this.#config = config;
    this.#bucket = config.bucket;
    this.#root = config.root ? `${config.root}/` : '';
  }

  /** The SDK module and this bucket's client, both made on first use. */
  async #sdk(): Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: S3Client }> {
    const s3 = await loadS3();
    const config = this.#config;
    this.#client ??= new s3.S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    });
    return { s3, client: this.#client };
  }

  #key(key: string): string {
    assertSafeKey(key);
    return `${this.#root}${key}`;
  }

  async write(key: string, source: Readable, contentType?: string): Promise<void> {
    const fullKey = this.#key(key);
    // The source may fail while the SDK loads: hold that error instead of letting it go unhandled.
    let failedEarly: unknown = null;
    const onEarlyError = (error: unknown) => (failedEarly = error);
    source.once('error', onEarlyError);
    const [{ client }, Upload] = await Promise.all([this.#sdk(), loadUpload()]).finally(() => source.off('error', onEarlyError));
    if (failedEarly) throw failedEarly;
    const upload = new Upload({ client, params: { Bucket: this.#bucket, Key: fullKey, Body: source, ContentType: contentType }, leavePartsOnError: false });
    // A failing source must abort the multipart upload, or the SDK would wait for more data.
    const onError = () => void upload.abort().catch(() => undefined);
    source.once('error', onError);
    try {
      await upload.done();
    } finally {
      source.off('error', onError);
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const { s3, client } = await this.#sdk();
    const output = await client.send(new s3.GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return output.Body as Readable;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { s3, client } = await this.#sdk();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error, s3)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.#sdk();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix.replace(/\/+$/, ''));
    const full = `${this.#root}${prefix}`;
    const { s3, client } = await this.#sdk();
    let token: string | undefined;
    do {
      const page = await client.send(new s3.ListObjectsV2Command({ Bucket: this.#bucket, Prefix: full, ContinuationToken: token }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) await client.send(new s3.DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.#client?.destroy();
  }
}
