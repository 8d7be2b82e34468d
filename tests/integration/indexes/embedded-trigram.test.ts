import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmbeddedApp, type EmbeddedApp } from '../../helpers/embedded-app.ts';

/** The embedded database (PGlite): pg_trgm is registered, CREATE INDEX CONCURRENTLY works there too. */
let embedded: EmbeddedApp;

beforeAll(async () => {
  embedded = await createEmbeddedApp('tessera-trgm-', { INDEX_ADVICE_THRESHOLD: '0' });
}, 120_000);

afterAll(async () => {
  await embedded?.close();
});

it('advises and builds a trigram index for ?search= and a btree for a sort on the embedded database', async () => {
  const { request, auth, database } = embedded;
  await request.post('/collections').set(auth).send({ collection: 'notes', fields: [{ field: 'title', type: 'string', schema: { is_indexed: true } }, { field: 'rank', type: 'integer' }] }).expect(200);
  const db = database.kysely();
  await sql`insert into notes (title, rank) select md5(i::text), i from generate_series(1, 20000) i`.execute(db);
  await request.get('/items/notes').query({ search: 'abc' }).set(auth).expect(200);
  await request.get('/items/notes').query({ sort: '-rank' }).set(auth).expect(200);
  const advice = (await request.get('/utils/index-advice').set(auth).expect(200)).body.data as Array<{ index: { name: string; kind: string; columns: string[] } }>;
  expect(advice.map((item) => item.index.name).sort()).toEqual(['notes_rank_index', 'notes_title_trgm_index']);
  for (const item of advice) await request.post('/utils/index-advice/apply').set(auth).send({ collection: 'notes', columns: item.index.columns, kind: item.index.kind }).expect(200);
  await sql`analyze notes`.execute(db);
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from notes where title ilike ${'%abc%'}`.execute(db);
  expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on notes_title_trgm_index/);
  expect((await request.get('/fields/notes/title').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
  expect((await request.get('/fields/notes/rank').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
}, 120_000);
