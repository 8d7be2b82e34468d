import { article, SEARCH_WORD } from './data.ts';
import type { Api } from './api.ts';
import type { Scenario } from './load.ts';

/** Builds the index the advice offers for list_100's sort, through the API an admin would use. */
async function applyAdvisedSortIndex(admin: Api): Promise<string> {
  await admin.call('GET', '/items/articles?limit=100&sort=-published_on');
  const { data } = await admin.call<{ data: Array<{ shape: { sort: string[] }; index: { name: string; kind: string; columns: string[] } }> }>('GET', '/utils/index-advice?collection=articles');
  const advice = data.find((item) => item.shape.sort.join() === '-published_on' && item.index.kind === 'btree');
  if (!advice) throw new Error(`No index advice for sort=-published_on: ${JSON.stringify(data)}`);
  const started = performance.now();
  await admin.call('POST', '/utils/index-advice/apply', { collection: 'articles', columns: advice.index.columns, kind: advice.index.kind });
  await admin.call('POST', '/utils/cache/clear');
  return `advised index ${advice.index.name} (${advice.index.columns.join(', ')}) built concurrently in ${Math.round(performance.now() - started)} ms`;
}

const GRAPHQL_RELATIONAL = JSON.stringify({ query: '{ articles(limit: 100) { id title author { name } } }' });

/** The views update_if_match writes: the value its articles already hold, so their versions (ETags) stay. */
const SAME_VIEWS = 4242;

/** Every load scenario, in the order they run (reads first: create adds articles). */
export function scenarios(articleIds: readonly number[], authorIds: readonly number[], credentials: { email: string; password: string }): Scenario[] {
  const anyArticle = () => articleIds[Math.floor(Math.random() * articleIds.length)]!;
  const versioned = articleIds.slice(0, 200);
  const etags = new Map<number, string>();
  return [
    { name: 'read_one', kind: 'read', directus: 500, method: 'GET', path: '/items/articles/1', example: 'GET /items/articles/<random id>', next: () => ({ path: `/items/articles/${anyArticle()}` }) },
    { name: 'list_100', kind: 'read', directus: 350, method: 'GET', path: '/items/articles?limit=100&sort=-published_on', example: 'GET /items/articles?limit=100&sort=-published_on' },
    {
      // The same list as a role that may read only published articles, and only some of their fields.
      name: 'list_100_restricted',
      kind: 'read',
      directus: null,
      method: 'GET',
      path: '/items/articles?limit=100&sort=-published_on',
      example: 'GET /items/articles?limit=100&sort=-published_on as a role: status = published, 6 fields',
      as: 'restricted',
    },
    {
      name: 'filter',
      kind: 'read',
      directus: 415,
      method: 'GET',
      path: '/items/articles?filter[status][_eq]=published&filter[views][_gt]=500',
      example: 'GET /items/articles?filter[status][_eq]=published&filter[views][_gt]=500',
    },
    { name: 'relational', kind: 'read', directus: 340, method: 'GET', path: '/items/articles?fields=id,title,author.name&limit=100', example: 'GET /items/articles?fields=id,title,author.name&limit=100' },
    {
      // The relational read through GraphQL: the same Query AST and one SQL statement as the REST row above.
      name: 'graphql_relational',
      kind: 'read',
      directus: null,
      method: 'POST',
      path: '/graphql',
      example: 'POST /graphql { articles(limit: 100) { id title author { name } } }',
      next: () => ({ body: GRAPHQL_RELATIONAL }),
    },
    {
      name: 'o2m_deep',
      kind: 'read',
      directus: null,
      method: 'GET',
      path: '/items/authors?fields=id,name,articles.title&deep[articles][_limit]=5&deep[articles][_sort]=-views&limit=50',
      example: 'GET /items/authors?fields=id,name,articles.title&deep[articles][_limit]=5&deep[articles][_sort]=-views&limit=50',
    },
    {
      name: 'aggregate',
      kind: 'read',
      directus: 470,
      method: 'GET',
      path: '/items/articles?aggregate[count]=*&aggregate[avg]=views&groupBy=status',
      example: 'GET /items/articles?aggregate[count]=*&aggregate[avg]=views&groupBy=status',
    },
    {
      // list_100 again, once the index /utils/index-advice offers for its sort is built (and dropped after).
      name: 'list_100_indexed',
      kind: 'read',
      directus: 350,
      method: 'GET',
      path: '/items/articles?limit=100&sort=-published_on',
      example: 'GET /items/articles?limit=100&sort=-published_on with the advised index (published_on)',
      before: applyAdvisedSortIndex,
      after: async (admin) => {
        await admin.call('PATCH', '/fields/articles/published_on', { schema: { is_indexed: false } });
      },
    },
    { name: 'search', kind: 'read', directus: 485, method: 'GET', path: `/items/articles?search=${SEARCH_WORD}&limit=100`, example: `GET /items/articles?search=${SEARCH_WORD}&limit=100` },
    {
      // list_100 from the response cache: after the warm-up's first request every request is a hit.
      name: 'list_100_cached',
      kind: 'read',
      directus: 350,
      method: 'GET',
      path: '/items/articles?limit=100&sort=-published_on',
      example: 'GET /items/articles?limit=100&sort=-published_on, CACHE_ENABLED=true (hits)',
      cached: true,
    },
    {
      name: 'aggregate_cached',
      kind: 'read',
      directus: 470,
      method: 'GET',
      path: '/items/articles?aggregate[count]=*&aggregate[avg]=views&groupBy=status',
      example: 'GET /items/articles?aggregate[count]=*&aggregate[avg]=views&groupBy=status, CACHE_ENABLED=true (hits)',
      cached: true,
    },
    {
      name: 'create',
      kind: 'write',
      directus: 295,
      method: 'POST',
      path: '/items/articles',
      example: 'POST /items/articles {title, body, status, views, published_on, author}',
      next: () => ({ body: JSON.stringify(article(Math.random, authorIds)) }),
    },
    {
      name: 'update',
      kind: 'write',
      directus: 285,
      method: 'PATCH',
      path: '/items/articles/1',
      example: 'PATCH /items/articles/<random id> {views}',
      next: () => ({ path: `/items/articles/${anyArticle()}`, body: JSON.stringify({ views: Math.floor(Math.random() * 1000) }) }),
    },
    {
      // `update` with If-Match (issue 35, docs/collaboration.md): each PATCH names the article's current ETag and
      // writes the value it holds, so the version stays and every check passes; compare with `update`.
      name: 'update_if_match',
      kind: 'write',
      directus: null,
      method: 'PATCH',
      path: `/items/articles/${versioned[0]}`,
      example: 'PATCH /items/articles/<random id> {views} with If-Match: <its ETag>',
      before: async (admin) => {
        await admin.call('PATCH', '/items/articles', { keys: versioned, data: { views: SAME_VIEWS } });
        for (const id of versioned) {
          const response = await fetch(`${admin.base}/items/articles/${id}?fields=id`, { headers: { Authorization: `Bearer ${admin.token}` } });
          const etag = response.headers.get('etag');
          if (etag) etags.set(id, etag);
        }
        return `${versioned.length} articles at views=${SAME_VIEWS}, ${etags.size} ETags read`;
      },
      next: () => {
        const id = versioned[Math.floor(Math.random() * versioned.length)]!;
        const etag = etags.get(id);
        return { path: `/items/articles/${id}`, body: JSON.stringify({ views: SAME_VIEWS }), headers: etag ? { 'if-match': etag } : undefined };
      },
    },
    {
      // Directus stalls every sign-in for 500 ms; Tessera's cost is one argon2id verification plus a session row.
      name: 'login',
      kind: 'write',
      directus: 11,
      method: 'POST',
      path: '/auth/login',
      example: 'POST /auth/login {email, password}',
      next: () => ({ body: JSON.stringify(credentials) }),
    },
  ];
}
