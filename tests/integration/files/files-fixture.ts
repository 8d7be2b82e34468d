import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'supertest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** A test app whose uploads land in a fresh temporary DATA_DIR. */
export interface FilesTestApp extends TestApp {
  dataDir: string;
  uploads: string;
  /** Every file under DATA_DIR/uploads (relative paths), for "nothing left on disk" checks. */
  storedFiles(): Promise<string[]>;
  /** Rows in tessera_files. */
  fileCount(): Promise<number>;
}

/** Starts a test app with its own upload folder; `env` adds configuration. */
export async function createFilesTestApp(env: Record<string, string> = {}): Promise<FilesTestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-files-'));
  const t = await createTestApp({ DATA_DIR: dataDir, ...env });
  const uploads = path.join(dataDir, 'uploads');
  return {
    ...t,
    dataDir,
    uploads,
    async storedFiles() {
      try {
        return (await readdir(uploads, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => path.relative(uploads, path.join(entry.parentPath, entry.name))).sort();
      } catch {
        return [];
      }
    },
    async fileCount() {
      const row = await t.system.db.selectFrom('tessera_files').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async close() {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The Authorization header for a token. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Makes supertest collect a binary body into a Buffer (`response.body`). */
export function binaryBody(request: Test): Test {
  return request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
