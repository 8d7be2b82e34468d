import pg from 'pg';
import { signIn, type Api } from './api.ts';
import { article, author, random } from './data.ts';

/** Creates authors and articles (author m2o -> authors, o2m alias `articles`) through the API. */
export async function createContentSchema(api: Api): Promise<void> {
  await api.call('POST', '/collections', {
    collection: 'authors',
    fields: [
      { field: 'name', type: 'string', schema: { is_nullable: false } },
      { field: 'email', type: 'string' },
    ],
  });
  await api.call('POST', '/collections', {
    collection: 'articles',
    fields: [
      { field: 'title', type: 'string', meta: { required: true } },
      { field: 'body', type: 'text' },
      { field: 'status', type: 'string', schema: { max_length: 20, default_value: 'draft' } },
      { field: 'views', type: 'integer', schema: { default_value: 0 } },
      { field: 'published_on', type: 'timestamp' },
      { field: 'author', type: 'integer' },
    ],
  });
  await api.call('POST', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
}

export interface SeedResult {
  authorIds: number[];
  articleIds: number[];
  authorsMs: number;
  articlesMs: number;
}

async function postBatches<T>(api: Api, collection: string, rows: T[], batchSize: number, onBatch?: (done: number) => void): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += batchSize) {
    const { data } = await api.call<{ data: Array<{ id: number }> }>('POST', `/items/${collection}?fields=id`, rows.slice(start, start + batchSize));
    for (const item of data) ids.push(item.id);
    onBatch?.(ids.length);
  }
  return ids;
}

/** Seeds `authors` and `articles` through POST /items with arrays of `batchSize` (activity and revisions on). */
export async function seedContent(api: Api, counts: { authors: number; articles: number; batchSize: number }, log: (line: string) => void): Promise<SeedResult> {
  let started = performance.now();
  const authors = Array.from({ length: counts.authors }, (_, i) => author(i + 1));
  const authorIds = await postBatches(api, 'authors', authors, counts.batchSize);
  const authorsMs = performance.now() - started;
  log(`  ${authorIds.length} authors in ${(authorsMs / 1000).toFixed(1)} s`);

  started = performance.now();
  const rand = random(42);
  const articles = Array.from({ length: counts.articles }, () => article(rand, authorIds));
  const articleIds = await postBatches(api, 'articles', articles, counts.batchSize, (done) => {
    if (done % 2500 === 0 || done === counts.articles) log(`  ${done} articles (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  });
  const articlesMs = performance.now() - started;
  return { authorIds, articleIds, authorsMs, articlesMs };
}

/**
 * The standard data set of `npm run bench` and `bench:compare`: the content schema, authors and articles
 * seeded through the API, then `vacuum analyze` (what autovacuum would do within a minute).
 */
export async function seedStandardContent(api: Api, databaseUrl: string, counts: { authors: number; articles: number; batchSize: number }, log: (line: string) => void): Promise<SeedResult> {
  await createContentSchema(api);
  const seeded = await seedContent(api, counts, log);
  log(`  ${seeded.articleIds.length} articles in ${(seeded.articlesMs / 1000).toFixed(1)} s (${(seeded.articleIds.length / (seeded.articlesMs / 1000)).toFixed(0)} items/s)`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
  log('  vacuum analyze (what autovacuum would do within a minute)');
  return seeded;
}

/**
 * The m2m read scenario's schema, created through the API: parents, children and the junction
 * parents_children, with `parents.children` as the m2m alias.
 */
export async function createManyToManySchema(api: Api): Promise<void> {
  await api.call('POST', '/collections', { collection: 'parents', fields: [{ field: 'name', type: 'string' }, { field: 'rank', type: 'integer' }] });
  await api.call('POST', '/collections', { collection: 'children', fields: [{ field: 'label', type: 'string' }] });
  await api.call('POST', '/collections', {
    collection: 'parents_children',
    fields: [
      { field: 'parents_id', type: 'integer' },
      { field: 'children_id', type: 'integer' },
    ],
  });
  await api.call('POST', '/relations', {
    collection: 'parents_children',
    field: 'parents_id',
    related_collection: 'parents',
    meta: { one_field: 'children', junction_field: 'children_id' },
    schema: { on_delete: 'CASCADE' },
  });
  await api.call('POST', '/relations', { collection: 'parents_children', field: 'children_id', related_collection: 'children', meta: { junction_field: 'parents_id' }, schema: { on_delete: 'CASCADE' } });
}

/**
 * Runs `work` in one transaction on a connection of its own, then `after` (`analyze …`, outside the
 * transaction); rolls back on failure. Returns the milliseconds both took.
 */
export async function sqlTransaction(databaseUrl: string, work: (client: pg.Client) => Promise<void>, after: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query('begin');
    await work(client);
    await client.query('commit');
    await client.query(after);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
  return performance.now() - started;
}

/**
 * Seeds the m2m data set directly with SQL (`insert … select generate_series`), bypassing the API for
 * speed: `parents` parents, `children` children, and `perParent` junction rows per parent.
 */
export function seedManyToManySql(databaseUrl: string, counts: { parents: number; children: number; perParent: number }): Promise<number> {
  return sqlTransaction(
    databaseUrl,
    async (client) => {
      await client.query(`insert into parents (name, rank) select 'Parent ' || g, g % 97 from generate_series(1, $1::int) as g`, [counts.parents]);
      await client.query(`insert into children (label) select 'Child ' || g from generate_series(1, $1::int) as g`, [counts.children]);
      await client.query(
        `insert into parents_children (parents_id, children_id)
           select p.id, ((p.id * $1::int + k) % $2::int) + 1
             from parents as p cross join generate_series(0, $1::int - 1) as k
            order by p.id, k`,
        [counts.perParent, counts.children],
      );
    },
    'analyze parents; analyze children; analyze parents_children',
  );
}

const RESTRICTED = { email: 'reader@example.com', password: 'reader-password-1' } as const;

/** A role that reads only published articles and six of their fields, and a user with it. */
export async function restrictedReader(api: Api): Promise<Api> {
  const role = await api.call<{ data: { id: string } }>('POST', '/roles', { name: 'Bench reader', app_access: false });
  await api.call('POST', '/permissions', {
    role: role.data.id,
    collection: 'articles',
    action: 'read',
    fields: 'id,title,status,views,published_on,author',
    permissions: { status: { _eq: 'published' } },
  });
  await api.call('POST', '/users', { ...RESTRICTED, role: role.data.id, status: 'active' });
  return signIn(api.base, RESTRICTED.email, RESTRICTED.password);
}
