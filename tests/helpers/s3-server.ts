import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** An S3-compatible server (s3rver) running in this process on 127.0.0.1, with one bucket. */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** STORAGE_<NAME>_* variables for a location on this server. */
  env(name: string): Record<string, string>;
  client: S3Client;
  close(): Promise<void>;
}

/** Starts s3rver on a free port with a fresh folder and creates `bucket`. */
export async function startS3Server(bucket = 'tessera-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'tessera-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    env: (name) => {
      const prefix = `STORAGE_${name.toUpperCase()}_`;
      return { [`${prefix}DRIVER`]: 's3', [`${prefix}BUCKET`]: bucket, [`${prefix}ENDPOINT`]: endpoint, [`${prefix}KEY`]: 'S3RVER', [`${prefix}SECRET`]: 'S3RVER', [`${prefix}FORCE_PATH_STYLE`]: 'true' };
    },
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
