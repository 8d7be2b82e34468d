import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { TEST_ENV } from '../../helpers/test-app.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

const ROWS = 200_000;
/** Old space the export's worker may use. */
const HEAP_MB = 48;

describe('a whole-table export of 200,000 items streams (memory bounded by a page, failures never stored)', () => {
  let t: FilesTestApp;
  let admin: string;
  let server: Listening;

  /** The backend of an export under way (its transaction open, its last statement a page read), once there is one. */
  async function exportBackend(): Promise<number> {
    for (;;) {
      const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null and query like '%__cursor%'`.execute(t.system.db);
      if (rows[0]) return rows[0].pid;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(bearer(admin))
      .send({ collection: 'big', fields: [{ field: 'label', type: 'text' }, { field: 'n', type: 'integer' }] })
      .expect(200);
    await sql`insert into big (label, n) select 'item ' || g || ' ' || repeat('x', 300), g % 1000 from generate_series(1, ${ROWS}) g`.execute(t.system.db);
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('stores a file larger than the heap it may use (a worker capped at 48 MB of old space)', async () => {
    const worker = new Worker(new URL('./export-in-worker.ts', import.meta.url), {
      workerData: { env: { ...TEST_ENV, DB_URL: t.testDatabase.url, DATA_DIR: t.dataDir }, collection: 'big', body: { format: 'json', query: { fields: ['id', 'label', 'n'] } } },
      // Read at once (before streaming), the items and the text took several times the file's size, and the worker ran out of memory.
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    const { id } = await new Promise<{ id: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }).finally(() => worker.terminate());
    const file = (await t.request.get(`/files/${id}`).set(bearer(admin)).expect(200)).body.data;
    expect(Number(file.filesize)).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    // ~75 MB written under a 2-core machine's load: minutes, not the default minute.
  }, 300_000);

  it('/utils/export stores neither a file nor its content when the database fails mid-export, and answers the error', async () => {
    const files = await t.fileCount();
    const stored = await t.storedFiles();
    const answer = t.request.post('/utils/export/big').set(bearer(admin)).send({ format: 'csv', query: { fields: ['id', 'label'] } }).then((response) => response);
    await sql`select pg_terminate_backend(${await exportBackend()})`.execute(t.system.db);
    const response = await answer;
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.body.errors[0].extensions.code).toBeDefined();
    expect(await t.fileCount()).toBe(files);
    expect(await t.storedFiles()).toEqual(stored);
  });

  it('a ?export= download the database fails mid-way ends as an incomplete transfer, not a file that looks whole', async () => {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest(`${server.url}/items/big?export=json&limit=-1`, { headers: bearer(admin) }, resolve).on('error', reject).end();
    });
    expect(response.statusCode).toBe(200);
    // Not reading: the server fills the socket and waits with its transaction open between two pages.
    response.pause();
    await sql`select pg_terminate_backend(${await exportBackend()})`.execute(t.system.db);
    let received = '';
    const ended = await new Promise<'end' | 'aborted'>((resolve) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (received += chunk));
      response.on('end', () => resolve('end'));
      response.on('error', () => resolve('aborted'));
      response.resume();
    });
    expect(ended).toBe('aborted');
    expect(response.complete).toBe(false);
    expect(received.startsWith('[\n  {')).toBe(true);
    expect(received.endsWith('\n]')).toBe(false);
    // The pool lost the connection the server closed, not the ability to read.
    await t.request.get('/items/big?limit=1&export=csv').set(bearer(admin)).expect(200);
  });
});
