/**
 * The read scenarios of bench/large-tables.ts: each as one Tessera request and as the SQL a hand-written
 * application would send to PostgreSQL for the same answer ("PostgreSQL alone", rows, not JSON).
 */
import type pg from 'pg';
import { ApiError, type Api } from './api.ts';
import { article, random, SEARCH_WORD } from './data.ts';
import { RARE_WORD } from './large-seed.ts';
import { indexNameOf } from '../server/indexes/managed-indexes.ts';

/** What a scenario runs against at one size. */
export interface LargeContext {
  api: Api;
  client: pg.Client;
  /** Articles in the table. */
  size: number;
  /** What `prepare` found for this size (a cursor, a sort value). */
  state: Record<string, string>;
}

export interface LargeScenario {
  name: string;
  /** The request, as the docs show it. */
  example: string;
  /** Timed runs per size (the median is reported). */
  runs?: number;
  /** Once per size, before timing (as the admin). */
  prepare?(context: LargeContext): Promise<void>;
  /** Once per size, after timing. */
  cleanup?(context: LargeContext): Promise<void>;
  /** One Tessera request. */
  tessera(context: LargeContext): Promise<void>;
  /** The same answer from PostgreSQL alone. */
  alone(context: LargeContext): Promise<void>;
}

/** One request; throws on any non-2xx answer, reads the whole body. */
async function send(api: Api, method: string, path: string, body?: FormData): Promise<string> {
  const response = await fetch(`${api.base}${path}`, { method, headers: { Authorization: `Bearer ${api.token}` }, body });
  const text = await response.text();
  if (!response.ok) throw new ApiError(method, path, response.status, text);
  return text;
}

/** A JSON POST; throws on any non-2xx answer or a GraphQL error, reads the whole body. */
async function sendJson(api: Api, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${api.base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok || text.includes('"errors"')) throw new ApiError('POST', path, response.status, text);
  return text;
}

/** A GET scenario whose SQL is fixed. */
function read(name: string, path: string, statement: string): LargeScenario {
  return { name, example: `GET ${path}`, tessera: ({ api }) => send(api, 'GET', path).then(() => undefined), alone: ({ client }) => client.query(statement).then(() => undefined) };
}

const searchSql = (word: string) => `select * from articles where title ilike '%${word}%' or body ilike '%${word}%' or status ilike '%${word}%' order by id limit 100`;
/** The text columns `?search=` scans on articles, which the trigram advice covers. */
const SEARCHED = ['title', 'body', 'status'];
const DEEP_OFFSET = (size: number) => Math.max(0, size - 200);

const IMPORT_ROWS = 1000;

/** Finds the cursor of the item (items − 200) in -published_on order, for the after_deep scenarios. */
async function prepareDeepCursor({ api, client, size, state }: LargeContext): Promise<void> {
  const { rows } = await client.query<{ published_on: Date; id: number }>(`select published_on, id from articles order by published_on desc, id limit 1 offset ${Math.max(0, DEEP_OFFSET(size) - 1)}`);
  state.published = rows[0]!.published_on.toISOString();
  state.id = String(rows[0]!.id);
  // The cursor of that item: the next_cursor of a one-item page that ends with it (a filter may differ
  // between pages; an offset read to reach it would outlast the statement timeout at 1M).
  const from = { _or: [{ published_on: { _lt: state.published } }, { _and: [{ published_on: { _eq: state.published } }, { id: { _gte: state.id } }] }] };
  const path = `/items/articles?fields=id&limit=1&sort=-published_on&meta=next_cursor&filter=${encodeURIComponent(JSON.stringify(from))}`;
  const { data, meta } = await api.call<{ data: Array<{ id: number }>; meta: { next_cursor: string } }>('GET', path);
  if (String(data[0]?.id) !== state.id) throw new Error(`after_deep: expected item ${state.id}, got ${JSON.stringify(data)}`);
  state.cursor = meta.next_cursor;
}

/** after_deep's page from PostgreSQL alone. */
function afterDeepAlone({ client, state }: LargeContext): Promise<void> {
  return client
    .query('select * from articles where published_on <= $1 and (published_on < $1 or (published_on = $1 and id > $2)) order by published_on desc, id limit 100', [state.published, state.id])
    .then(() => undefined);
}

// REST's `*` minus `author`: GraphQL has no bare key for a many-to-one, and `author { id }` would add a look-up per item.
const GRAPHQL_AFTER = `query ($after: String) {
  articles(limit: 100, sort: ["-published_on"], after: $after) { id title body status views published_on }
  articles_next_cursor(limit: 100, sort: ["-published_on"], after: $after)
}`;

function importCsv(seed: number): string {
  const rand = random(seed);
  const rows = Array.from({ length: IMPORT_ROWS }, () => article(rand, [1, 2, 3, 4, 5]));
  const quote = (value: string | number) => `"${String(value).replaceAll('"', '""')}"`;
  return ['title,body,status,views,published_on,author', ...rows.map((row) => [row.title, row.body, row.status, row.views, row.published_on, row.author].map(quote).join(','))].join('\n');
}

let imports = 0;

/** Every scenario, in the order they run at each size. */
export function largeScenarios(): LargeScenario[] {
  return [
    read('list', '/items/articles?limit=100', 'select * from articles order by id limit 100'),
    read('list_sorted', '/items/articles?limit=100&sort=-published_on', 'select * from articles order by published_on desc, id limit 100'),
    read('filter', '/items/articles?filter[status][_eq]=published&filter[views][_gt]=500&limit=100', "select * from articles where status = 'published' and views > 500 order by id limit 100"),
    read('relational', '/items/articles?fields=id,title,author.name&limit=100', 'select a.id, a.title, au.name from articles a left join authors au on au.id = a.author order by a.id limit 100'),
    read('aggregate', '/items/articles?aggregate[count]=*&aggregate[avg]=views&groupBy=status', 'select status, count(*), avg(views) from articles group by status order by status'),
    read('search', `/items/articles?search=${SEARCH_WORD}&limit=100`, searchSql(SEARCH_WORD)),
    read('search_rare', `/items/articles?search=${RARE_WORD}&limit=100`, searchSql(RARE_WORD)),
    {
      // search_rare once the trigram indexes /utils/index-advice offers for ?search= exist (dropped after). Built
      // with the advice's own statement over SQL: on a million articles the GIN build of `body` outlasts an HTTP
      // request's 300 s headers timeout (tests/integration/indexes cover POST /utils/index-advice/apply).
      ...read('search_rare_trigram', `/items/articles?search=${RARE_WORD}&limit=100`, searchSql(RARE_WORD)),
      example: `GET /items/articles?search=${RARE_WORD}&limit=100 with the advised trigram indexes (title, body, status)`,
      async prepare({ client }) {
        await client.query('create extension if not exists pg_trgm');
        for (const column of SEARCHED) {
          const name = indexNameOf({ table: 'articles', columns: [column], kind: 'trigram' });
          // A build cut short (an earlier run stopped) leaves an invalid index that IF NOT EXISTS would keep.
          const { rows } = await client.query<{ valid: boolean }>('select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1', [name]);
          if (rows[0] && !rows[0].valid) await client.query(`drop index concurrently "${name}"`);
          await client.query(`create index concurrently if not exists "${name}" on articles using gin ("${column}" gin_trgm_ops)`);
        }
      },
      async cleanup({ client }) {
        for (const column of SEARCHED) {
          const { rows } = await client.query<{ name: string }>(
            `select ic.relname as name from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class t on t.oid = i.indrelid join pg_am am on am.oid = ic.relam
              join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0] where t.relname = 'articles' and am.amname = 'gin' and a.attname = $1`,
            [column],
          );
          for (const { name } of rows) await client.query(`drop index if exists "${name.replaceAll('"', '""')}"`);
        }
      },
    },
    {
      ...read('filter_count', '/items/articles?limit=25&meta=filter_count', ''),
      alone: async ({ client }) => {
        await client.query('select * from articles order by id limit 25');
        await client.query('select count(*) from articles');
      },
    },
    {
      ...read('filter_count_filtered', '/items/articles?filter[status][_eq]=published&limit=25&meta=filter_count', ''),
      alone: async ({ client }) => {
        await client.query("select * from articles where status = 'published' order by id limit 25");
        await client.query("select count(*) from articles where status = 'published'");
      },
    },
    {
      name: 'offset_deep',
      example: 'GET /items/articles?limit=100&sort=-published_on&offset=<items − 200>',
      tessera: ({ api, size }) => send(api, 'GET', `/items/articles?limit=100&sort=-published_on&offset=${DEEP_OFFSET(size)}`).then(() => undefined),
      alone: ({ client, size }) => client.query(`select * from articles order by published_on desc, id limit 100 offset ${DEEP_OFFSET(size)}`).then(() => undefined),
    },
    {
      // The admin table's default order (the key) far from the start: the last pages of the pagination.
      name: 'offset_deep_key',
      example: 'GET /items/articles?limit=100&offset=<items − 200>',
      tessera: ({ api, size }) => send(api, 'GET', `/items/articles?limit=100&offset=${DEEP_OFFSET(size)}`).then(() => undefined),
      alone: ({ client, size }) => client.query(`select * from articles order by id limit 100 offset ${DEEP_OFFSET(size)}`).then(() => undefined),
    },
    {
      name: 'after_deep',
      example: 'GET /items/articles?limit=100&sort=-published_on&after=<cursor of item (items − 200)>',
      prepare: prepareDeepCursor,
      tessera: ({ api, state }) => send(api, 'GET', `/items/articles?limit=100&sort=-published_on&after=${encodeURIComponent(state.cursor!)}`).then(() => undefined),
      alone: afterDeepAlone,
    },
    {
      // The same page through GraphQL: the list and its next cursor in one operation (docs/graphql.md "Cursors").
      name: 'graphql_after_deep',
      example: 'POST /graphql { articles(limit: 100, sort: ["-published_on"], after: $c) { … } articles_next_cursor(…) }',
      prepare: prepareDeepCursor,
      tessera: ({ api, state }) => sendJson(api, '/graphql', { query: GRAPHQL_AFTER, variables: { after: state.cursor } }).then(() => undefined),
      alone: afterDeepAlone,
    },
    read(
      'm2m_deep',
      '/items/parents?fields=id,name,children.children_id.label&deep[children][_limit]=5&limit=100',
      `select p.id, p.name, c.label from (select id, name from parents order by id limit 100) p
         left join lateral (select children_id from parents_children pc where pc.parents_id = p.id order by pc.id limit 5) pc on true
         left join children c on c.id = pc.children_id order by p.id`,
    ),
    read(
      'export',
      '/items/articles?export=csv&limit=1000&sort=-published_on&fields=id,title,status,views,published_on',
      'select id, title, status, views, published_on from articles order by published_on desc, id limit 1000',
    ),
    {
      ...read(
        'export_all',
        '/items/articles?export=csv&limit=-1&sort=-published_on&fields=id,title,status,views,published_on',
        'select id, title, status, views, published_on from articles order by published_on desc, id',
      ),
      // The whole table: streamed in EXPORT_BATCH_SIZE pages (docs/files.md "Import and export").
      runs: 3,
    },
    {
      name: 'import',
      example: `POST /utils/import/articles (CSV, ${IMPORT_ROWS} rows)`,
      runs: 5,
      async tessera({ api }) {
        const form = new FormData();
        form.append('file', new Blob([importCsv(++imports)], { type: 'text/csv' }), 'articles.csv');
        await send(api, 'POST', '/utils/import/articles', form);
      },
      async alone({ client }) {
        const rows = Array.from({ length: IMPORT_ROWS }, (_, index) => article(random(index + 7), [1, 2, 3, 4, 5]));
        await client.query('insert into articles (title, body, status, views, published_on, author) select title, body, status, views, published_on, author from json_populate_recordset(null::articles, $1)', [JSON.stringify(rows)]);
      },
    },
  ];
}
