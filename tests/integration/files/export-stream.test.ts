import type { KyselyPlugin } from 'kysely';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, renderExport, type ExportFormat } from '../../../server/services/export/export-format.ts';
import { exportPages } from '../../../server/services/export/export-pages.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

const ROWS = 53;
const BATCH = 7;

/** Item `index` of the data set: ties in `n`, text CSV must quote, and JSON whose keys differ from item to item (one only late). */
function row(index: number, people: number[]): Record<string, unknown> {
  const notes = ['plain', 'two\nlines', 'comma, and "quotes"', '=1+1', 'ünïcödé', ''];
  const specs = [{ a: index }, { b: { c: index } }, null, [1, 2]][index % 4];
  return {
    code: `c${String(index).padStart(2, '0')}`,
    n: index % 5,
    note: notes[index % notes.length],
    flag: index % 2 === 0,
    specs: index >= 40 && index % 4 === 2 ? { late: true } : specs,
    author: index % 3 === 0 ? null : people[index % people.length],
  };
}

/** Counts statements a service sends and the most rows one returned. */
function statementCounter(): { plugin: KyselyPlugin; count: () => number; largest: () => number } {
  let count = 0;
  let largest = 0;
  return {
    plugin: {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        count += 1;
        largest = Math.max(largest, args.result.rows.length);
        return Promise.resolve(args.result);
      },
    },
    count: () => count,
    largest: () => largest,
  };
}

describe('exports stream in keyset pages (EXPORT_BATCH_SIZE) with the bytes one read renders', () => {
  let t: FilesTestApp;
  let admin: string;
  let reader: string;

  /** What the export of `query` must be: today's renderer over the caller's one read of the same query. */
  const expected = async (token: string, query: string, format: ExportFormat) => renderExport((await t.request.get(`/items/rows?${query}`).set(bearer(token)).expect(200)).body.data, format).body;
  const exported = async (token: string, query: string, format: ExportFormat) => (await t.request.get(`/items/rows?${query}&export=${format}`).set(bearer(token)).buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  }).expect(200)).body as string;

  beforeAll(async () => {
    t = await createFilesTestApp({ EXPORT_BATCH_SIZE: String(BATCH), QUERY_LIMIT_DEFAULT: '20' });
    admin = await t.login();
    await t.request.post('/collections').set(bearer(admin)).send({ collection: 'people', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(bearer(admin))
      .send({
        collection: 'rows',
        fields: [
          { field: 'code', type: 'string' },
          { field: 'n', type: 'integer' },
          { field: 'note', type: 'text' },
          { field: 'flag', type: 'boolean' },
          { field: 'specs', type: 'json' },
          { field: 'author', type: 'integer' },
        ],
      })
      .expect(200);
    await t.request.post('/relations').set(bearer(admin)).send({ collection: 'rows', field: 'author', related_collection: 'people' }).expect(200);
    const people = (await t.request.post('/items/people').set(bearer(admin)).send([{ name: 'Zoe' }, { name: 'Ann' }, { name: null }, { name: 'Bo' }]).expect(200)).body.data.map((person: { id: number }) => person.id);
    await t.request.post('/items/rows').set(bearer(admin)).send(Array.from({ length: ROWS }, (_, index) => row(index, people))).expect(200);

    const role = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Reader' }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(bearer(admin)).send({ role, collection: 'rows', action: 'read', fields: ['id', 'code', 'n', 'flag'], permissions: { flag: { _eq: true } } }).expect(200);
    await t.request.post('/users').set(bearer(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' }).expect(200);
    reader = await t.login('reader@example.com', 'reader-password-1');
  });
  afterAll(() => t.close());

  const queries = [
    'fields=*&sort=-n&limit=-1',
    'fields=code,note,author.name,specs&filter[flag][_eq]=true&sort=author.name,-code&limit=-1',
    'fields=id,code,n&search=c1&sort=code&limit=9&offset=2',
    'fields=code&sort=-code&page=3&limit=10',
    'fields=code,n',
    'aggregate[count]=*&groupBy[]=n&sort=n',
  ];

  it.each([...EXPORT_FORMATS])('?export=%s of several pages equals the one-read render, for every query shape', async (format) => {
    for (const query of queries) expect(await exported(admin, query, format), query).toBe(await expected(admin, query, format));
  });

  it('/utils/export stores the same bytes in every format', async () => {
    for (const format of EXPORT_FORMATS) {
      const query = { fields: ['code', 'author.name', 'specs'], sort: ['n', 'code'] };
      const file = (await t.request.post('/utils/export/rows').set(bearer(admin)).send({ format, query }).expect(200)).body.data;
      const stored = (await binaryBody(t.request.get(`/assets/${file.id}`).set(bearer(admin))).expect(200)).body.toString();
      expect(stored, format).toBe(await expected(admin, 'fields=code,author.name,specs&sort=n,code&limit=-1', format));
    }
  });

  it("applies the caller's permission filter and fields on every page", async () => {
    for (const format of EXPORT_FORMATS) expect(await exported(reader, 'sort=code&limit=-1', format), format).toBe(await expected(reader, 'sort=code&limit=-1', format));
    const rows = parseCsv(await exported(reader, 'limit=-1', 'csv'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(Math.ceil(ROWS / 2));
    expect(rows.every((item) => item.flag === 'true')).toBe(true);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'code', 'n', 'flag']);
  });

  it('reads one bounded statement per page, not one unbounded read', async () => {
    const counter = statementCounter();
    const schema = await t.context.schema.get();
    const service = new ItemsService('rows', { ...t.system, db: t.system.db.withPlugin(counter.plugin), schema });
    let items = 0;
    for await (const page of exportPages(service, { limit: -1, sort: ['-n'] }, { batchSize: BATCH, maxLimit: null, defaultLimit: 100 })) items += page.length;
    expect(items).toBe(ROWS);
    expect(counter.count()).toBe(Math.ceil(ROWS / BATCH));
    // A page reads one item more than it returns, to know whether another follows.
    expect(counter.largest()).toBe(BATCH + 1);
  });
});
