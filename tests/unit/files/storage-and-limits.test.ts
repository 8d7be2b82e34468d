import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { isAllowedHost } from '../../../server/files/import/fetch-remote.ts';
import { cachedTransform } from '../../../server/files/assets/transform-cache.ts';
import { LocalStorageDriver } from '../../../server/files/storage/local-driver.ts';
import { assertSafeKey } from '../../../server/files/storage/storage-driver.ts';
import { ConfigError, ForbiddenError, ServiceUnavailableError } from '../../../server/errors.ts';

describe('local storage driver', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tessera-local-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('writes through a temporary name and leaves nothing when the source fails', async () => {
    const driver = new LocalStorageDriver('local', root);
    await driver.write('a/b.txt', Readable.from([Buffer.from('abc')]));
    expect(await driver.stat('a/b.txt')).toEqual({ size: 3 });
    // Fails when the driver asks for more than the first chunk: by then it listens for the error (a timer could
    // fire before the driver had attached to the stream, and the error would go unheard).
    let reads = 0;
    const failing = new Readable({
      read() {
        if (reads++ === 0) this.push(Buffer.from('part'));
        else this.destroy(new Error('gone'));
      },
    });
    await expect(driver.write('a/c.txt', failing)).rejects.toThrow('gone');
    expect((await readdir(path.join(root, 'a'))).sort()).toEqual(['b.txt']);
    expect(Buffer.concat(await (await driver.read('a/b.txt', { start: 1, end: 2 })).toArray()).toString()).toBe('bc');
    await driver.deletePrefix('a/');
    expect(await driver.stat('a/b.txt')).toBeNull();
  });

  it('never lets a key leave its root', () => {
    for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a//b', '', 'a\0b.png', '..\\..\\etc\\passwd', 'C:/Windows/win.ini', 'a/\nb', 'x'.repeat(2000)]) {
      expect(() => assertSafeKey(key), JSON.stringify(key)).toThrow(ForbiddenError);
    }
    expect(() => assertSafeKey('.transforms/id/hash.webp')).not.toThrow();
  });

  it('refuses unsafe keys with 403 in every operation, never touching anything outside the root', async () => {
    const driver = new LocalStorageDriver('local', path.join(root, 'inner'));
    for (const key of ['../outside.txt', '/etc/passwd', 'a\0b']) {
      await expect(driver.write(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(ForbiddenError);
      await expect(driver.read(key)).rejects.toThrow(ForbiddenError);
      await expect(driver.stat(key)).rejects.toThrow(ForbiddenError);
      await expect(driver.delete(key)).rejects.toThrow(ForbiddenError);
      await expect(driver.deletePrefix(`${key}/`)).rejects.toThrow(ForbiddenError);
    }
    expect(await readdir(root)).not.toContain('outside.txt');
  });
});

describe('transform cache', () => {
  it('runs a transformation once for concurrent requests, then serves the stored copy', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tessera-cache-'));
    const driver = new LocalStorageDriver('local', root);
    const runtime = { transforms: pLimit(1), queueTransforms: true, inflight: new Map(), storage: null as never };
    let runs = 0;
    const produce = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { data: Buffer.from('image-bytes'), width: 1, height: 1 };
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => cachedTransform(runtime, driver, '.transforms/f/abc.webp', produce)));
    expect(runs).toBe(1);
    expect(results.every((result) => !result.cached && result.body.size === 11)).toBe(true);
    const again = await cachedTransform(runtime, driver, '.transforms/f/abc.webp', produce);
    expect([runs, again.cached]).toEqual([1, true]);
    expect(Buffer.concat(await (await again.body.read({ start: 6, end: 10 })).toArray()).toString()).toBe('bytes');
    expect(runtime.inflight.size).toBe(0);
    await rm(root, { recursive: true, force: true });
  });
});

// Issue 31, item 9: ASSETS_TRANSFORM_QUEUE=false answers as Directus does past ASSETS_TRANSFORM_MAX_CONCURRENT.
describe('transform cache without the queue', () => {
  it('refuses a new copy with 503 while the limit is taken, and makes it once a slot is free', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tessera-busy-'));
    const driver = new LocalStorageDriver('local', root);
    const runtime = { transforms: pLimit(1), queueTransforms: false, inflight: new Map(), storage: null as never };
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const image = { data: Buffer.from('image-bytes'), width: 1, height: 1 };
    const first = cachedTransform(runtime, driver, '.transforms/f/one.webp', async () => {
      started();
      await held;
      return image;
    });
    await running;
    const refused = await cachedTransform(runtime, driver, '.transforms/f/two.webp', async () => image).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect((refused as ServiceUnavailableError).extensions).toMatchObject({ service: 'files', retryAfter: 1 });
    // The same copy as the one under way is shared, not refused.
    const shared = cachedTransform(runtime, driver, '.transforms/f/one.webp', async () => image);
    release();
    expect((await first).body.size).toBe(11);
    expect((await shared).body.size).toBe(11);
    expect((await cachedTransform(runtime, driver, '.transforms/f/two.webp', async () => image)).cached).toBe(false);
    await rm(root, { recursive: true, force: true });
  });
});

describe('transform limiter (p-limit)', () => {
  it('runs at most `limit` tasks at once, in arrival order', async () => {
    const limit = pLimit(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        limit(async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(index);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect([limit.activeCount, limit.pendingCount]).toEqual([0, 0]);
  });
});

describe('file settings', () => {
  it('reads storage locations and checks them', () => {
    const config = loadConfig({ DATA_DIR: '/srv/data', STORAGE_LOCATIONS: 's3,disk', STORAGE_S3_DRIVER: 's3', STORAGE_S3_BUCKET: 'media', STORAGE_S3_ROOT: '/site/', STORAGE_DISK_ROOT: 'files' }, '/app');
    expect(config.storage.locations).toEqual([
      { name: 's3', driver: 's3', bucket: 'media', root: 'site', endpoint: null, region: 'us-east-1', accessKeyId: null, secretAccessKey: null, forcePathStyle: false },
      { name: 'disk', driver: 'local', root: '/app/files' },
    ]);
    expect(loadConfig({ DATA_DIR: '/srv/data' }, '/app').storage.locations).toEqual([{ name: 'local', driver: 'local', root: '/srv/data/uploads' }]);
    let problems: string[] = [];
    try {
      loadConfig({ STORAGE_LOCATIONS: 'cloud,Cloud', STORAGE_CLOUD_DRIVER: 's3', STORAGE_CLOUD_KEY: 'k', FILES_MIME_TYPE_ALLOW_LIST: 'images' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^FILES_MIME_TYPE_ALLOW_LIST: /),
        expect.stringMatching(/^STORAGE_CLOUD_BUCKET: is required/),
        expect.stringMatching(/^STORAGE_CLOUD_KEY and STORAGE_CLOUD_SECRET/),
        expect.stringMatching(/^STORAGE_LOCATIONS: "Cloud"/),
      ]),
    );
  });

  it('matches import hosts exactly or by wildcard', () => {
    expect(isAllowedHost('cdn.example.com', ['cdn.example.com'])).toBe(true);
    expect(isAllowedHost('img.example.com', ['*.example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('evil-example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('anything.test', ['*'])).toBe(true);
    expect(isAllowedHost('CDN.EXAMPLE.COM', ['cdn.example.com'])).toBe(true);
  });
});
