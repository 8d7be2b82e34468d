import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { StorageLocationConfig } from '../../config/storage-locations.ts';
import { assertSafeKey, type ByteRange, type StorageDriver } from './storage-driver.ts';

type S3Location = Extract<StorageLocationConfig, { driver: 's3' }>;

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

/**
 * An S3-compatible bucket, so several server instances share the same files. Uploads stream through
 * lib-storage's multipart Upload; an aborted upload leaves no object.
 */
export class S3StorageDriver implements StorageDriver {
  readonly location: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #root: string;

  constructor(config: S3Location) {
    this.location = config.name;
    this.#bucket = config.bucket;
    this.#root = config.root ? `${config.root}/` : '';
    this.#client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    });
  }

  #key(key: string): string {
    assertSafeKey(key);
    return `${this.#root}${key}`;
  }

  async write(key: string, source: Readable, contentType?: string): Promise<void> {
    const upload = new Upload({ client: this.#client, params: { Bucket: this.#bucket, Key: this.#key(key), Body: source, ContentType: contentType }, leavePartsOnError: false });
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
    const output = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return output.Body as Readable;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix.replace(/\/+$/, ''));
    const full = `${this.#root}${prefix}`;
    let token: string | undefined;
    do {
      const page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: full, ContinuationToken: token }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) await this.#client.send(new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.#client.destroy();
  }
}
