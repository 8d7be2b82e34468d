import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeakFixture, EDITOR_ARTICLE_FIELDS, leakedMarkers, MARKERS, type LeakFixture } from './leak-fixture.ts';

// docs/permissions.md's list of the SPEC §6 default user fields, written out so a change to the product's
// own constant cannot move the expectation with it.
const OWN_USER_FIELDS = ['id', 'first_name', 'last_name', 'last_page', 'email', 'password', 'location', 'title', 'description', 'tags', 'avatar', 'language', 'appearance', 'theme_light', 'theme_dark', 'tfa_secret', 'status', 'role'];

/**
 * Roles × actions × paths, each with an exact expected answer. Articles 1–6 are, in order: Pub One
 * (published, editor2's), Pub Two (published, ghost author), Ed Draft (editor's draft), the other draft
 * (editor2's), the archived one, Ed Review (editor's, in review). The editor sees 1, 2, 3, 6; the public 1, 2.
 */
type Who = 'admin' | 'editor' | 'editor2' | 'app' | 'public';
type Lazy<T> = T | ((f: LeakFixture) => T);

interface Case {
  name: string;
  who: Who;
  method?: 'get' | 'post' | 'patch' | 'delete';
  path: Lazy<string>;
  body?: Lazy<unknown>;
  /** Expected status (200 unless given). */
  status?: number;
  /** Error code (403 defaults to FORBIDDEN). */
  code?: string;
  /** The field the error names. */
  field?: string;
  /** Exact ids of `data` (a list). */
  ids?: Lazy<unknown[]>;
  /** Exact `data`. */
  data?: Lazy<unknown>;
  meta?: unknown;
  check?: (response: Response, f: LeakFixture) => unknown;
}

let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
  expect(f.ids.a).toEqual({ pubOne: 1, pubTwo: 2, edDraft: 3, otherDraft: 4, archived: 5, edReview: 6 });
  expect(f.ids.comments).toEqual({ nice: 1, spam: 2, thanks: 3 });
});
afterAll(() => f?.t.close());

const lazy = <T>(value: Lazy<T>): T => (typeof value === 'function' ? (value as (f: LeakFixture) => T)(f) : value);

function tokenOf(who: Who): string | null {
  return who === 'public' ? null : f.tokens[who];
}

async function send(who: Who, method: NonNullable<Case['method']>, path: string, body?: unknown): Promise<Response> {
  let request = f.t.request[method](path).set(f.as(tokenOf(who)));
  if (body !== undefined) request = request.send(body as object);
  return request;
}

async function run(c: Case): Promise<void> {
  const response = await send(c.who, c.method ?? 'get', lazy(c.path), c.body === undefined ? undefined : lazy(c.body));
  const status = c.status ?? 200;
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const code = c.code ?? (status === 403 ? 'FORBIDDEN' : undefined);
  if (code) expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe(code);
  if (c.field !== undefined) expect(response.body.errors?.[0]?.extensions?.field).toBe(c.field);
  if (c.ids !== undefined) expect(response.body.data.map((item: { id: unknown }) => item.id)).toEqual(lazy(c.ids));
  if (c.data !== undefined) expect(response.body.data).toEqual(lazy(c.data));
  if (c.meta !== undefined) expect(response.body.meta).toEqual(c.meta);
  // Whatever the answer, a restricted caller never sees a value planted in what it may not read.
  if (c.who === 'editor' || c.who === 'public' || c.who === 'app') expect(leakedMarkers(response.body)).toEqual([]);
  await c.check?.(response, f);
}

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');

const forbidden = (who: Who, name: string, path: Lazy<string>, field?: string): Case => ({ name, who, path, status: 403, ...(field ? { field } : {}) });

// ─── Direct reads ────────────────────────────────────────────────────────────────────────────────────
const DIRECT: Case[] = [
  { name: 'admin lists every article', who: 'admin', path: '/items/articles?fields=id', ids: [1, 2, 3, 4, 5, 6] },
  { name: 'editor lists published and own', who: 'editor', path: '/items/articles?fields=id', ids: [1, 2, 3, 6] },
  { name: 'editor2 lists published and own', who: 'editor2', path: '/items/articles?fields=id', ids: [1, 2, 4] },
  { name: 'public lists published, id and title only', who: 'public', path: '/items/articles?fields=*', data: [{ id: 1, title: 'Pub One' }, { id: 2, title: 'Pub Two' }] },
  { name: 'public default fields', who: 'public', path: '/items/articles', data: [{ id: 1, title: 'Pub One' }, { id: 2, title: 'Pub Two' }] },
  forbidden('app', 'app user (defaults only) cannot list articles', '/items/articles'),
  forbidden('app', 'app user cannot read one article', '/items/articles/1'),
  {
    name: 'editor reads one with * (only allowed fields)',
    who: 'editor',
    path: '/items/articles/2?fields=*',
    data: { id: 2, title: 'Pub Two', status: 'published', rating: 3, owner: null, author: 2, comments: [3], tags: [], blocks: [] },
  },
  { name: 'editor * has exactly the allowed keys', who: 'editor', path: '/items/articles/1', check: (r) => expect(Object.keys(r.body.data).sort()).toEqual([...EDITOR_ARTICLE_FIELDS].sort()), status: 200 },
  { name: 'editor reads own review', who: 'editor', path: '/items/articles/6?fields=id,title,status', data: { id: 6, title: 'Ed Review', status: 'review' } },
  forbidden('editor', 'editor: another editor draft by id is 403', '/items/articles/4'),
  forbidden('editor', 'editor: archived by id is 403', '/items/articles/5'),
  forbidden('editor', 'editor: missing id looks the same', '/items/articles/999'),
  forbidden('editor', 'editor: malformed id looks the same', '/items/articles/abc'),
  forbidden('public', 'public: draft by id is 403', '/items/articles/3'),
  { name: 'public reads a published one by id', who: 'public', path: '/items/articles/1', data: { id: 1, title: 'Pub One' } },
  forbidden('editor', 'editor: forbidden field in fields', '/items/articles?fields=secret_note', 'secret_note'),
  forbidden('editor', 'editor: forbidden field in fields by id', '/items/articles/1?fields=id,secret_note', 'secret_note'),
  forbidden('public', 'public: field outside its list', '/items/articles?fields=status', 'status'),
  forbidden('editor', 'editor: unknown field looks forbidden', '/items/articles?fields=no_such_field', 'no_such_field'),
  { name: 'admin: unknown field is a 400', who: 'admin', path: '/items/articles?fields=no_such_field', status: 400, code: 'INVALID_QUERY' },
  { name: 'admin reads secret_note', who: 'admin', path: '/items/articles/1?fields=secret_note', data: { secret_note: MARKERS.secretNote } },
  forbidden('editor', 'editor: collection without permission', '/items/vault'),
  forbidden('editor', 'editor: vault item by id', '/items/vault/1'),
  forbidden('editor', 'editor: tags (no permission)', '/items/tags'),
  forbidden('editor', 'editor: block_quote (no permission)', '/items/block_quote'),
  forbidden('editor', 'editor: unknown collection looks the same', '/items/no_such_collection'),
  forbidden('public', 'public: authors', '/items/authors'),
  forbidden('public', 'public: comments', '/items/comments'),
  { name: 'editor lists visible authors', who: 'editor', path: '/items/authors?fields=*', data: [{ id: 1, name: 'Ada', articles: [1, 3] }] },
  { name: 'editor2 sees its own draft through authors', who: 'editor2', path: '/items/authors?fields=articles', data: [{ articles: [1, 4] }] },
  forbidden('editor', 'editor: hidden author by id', '/items/authors/2'),
  forbidden('editor', 'editor: author email', '/items/authors?fields=email', 'email'),
  { name: 'editor lists approved comments', who: 'editor', path: '/items/comments?fields=*', data: [{ id: 1, body: 'Nice', article: 1 }, { id: 3, body: 'Thanks', article: 2 }] },
  forbidden('editor', 'editor: unapproved comment by id', '/items/comments/2'),
  forbidden('editor', 'editor: comment approved field', '/items/comments?fields=approved', 'approved'),
];

// ─── Relational reads and deep ───────────────────────────────────────────────────────────────────────
const RELATIONAL: Case[] = [
  {
    name: 'm2o: hidden author reads as null',
    who: 'editor',
    path: '/items/articles?fields=id,author.name',
    data: [{ id: 1, author: { name: 'Ada' } }, { id: 2, author: null }, { id: 3, author: { name: 'Ada' } }, { id: 6, author: null }],
  },
  { name: 'm2o *: hidden author null', who: 'editor', path: '/items/articles/2?fields=author.*', data: { author: null } },
  { name: 'm2o *: visible author limited fields', who: 'editor', path: '/items/articles/1?fields=author.*', data: { author: { id: 1, name: 'Ada', articles: [1, 3] } } },
  forbidden('editor', 'm2o: forbidden field of related', '/items/articles?fields=id,author.email', 'email'),
  forbidden('editor', 'm2o: rule field of related', '/items/articles?fields=author.visible', 'visible'),
  { name: 'o2m: only approved comments', who: 'editor', path: '/items/articles/1?fields=id,comments.body', data: { id: 1, comments: [{ body: 'Nice' }] } },
  { name: 'o2m from authors: only visible articles', who: 'editor', path: '/items/authors/1?fields=articles.title', data: { articles: [{ title: 'Pub One' }, { title: 'Ed Draft' }] } },
  forbidden('editor', 'o2m: forbidden field of related', '/items/articles?fields=comments.approved', 'approved'),
  forbidden('editor', 'o2m: forbidden field two levels down', '/items/authors?fields=articles.secret_note', 'secret_note'),
  forbidden('editor', 'm2m: collection without permission', '/items/articles?fields=id,tags.tags_id.label', 'label'),
  { name: 'm2m: unreadable related item is null', who: 'editor', path: '/items/articles/1?fields=tags.tags_id.*', data: { tags: [{ tags_id: null }, { tags_id: null }] } },
  { name: 'm2m: junction keys (junction readable)', who: 'editor', path: '/items/articles/1?fields=tags.tags_id', data: { tags: [{ tags_id: 1 }, { tags_id: 2 }] } },
  { name: 'admin m2m labels', who: 'admin', path: '/items/articles/1?fields=tags.tags_id.label', data: { tags: [{ tags_id: { label: 'news' } }, { tags_id: { label: MARKERS.tagLabel } }] } },
  {
    name: 'm2a *: unreadable collection item is null',
    who: 'editor',
    path: '/items/articles/1?fields=blocks.collection,blocks.item.*',
    data: { blocks: [{ collection: 'block_text', item: { id: 1, text: 'Intro' } }, { collection: 'block_quote', item: null }] },
  },
  forbidden('editor', 'm2a: field of unreadable collection', '/items/articles?fields=blocks.item:block_quote.quote', 'quote'),
  { name: 'm2a scoped to readable collection', who: 'editor', path: '/items/articles/1?fields=blocks.item:block_text.text', data: { blocks: [{ item: { text: 'Intro' } }, { item: '1' }] } },
  { name: 'admin m2a quote', who: 'admin', path: '/items/articles/1?fields=blocks.item:block_quote.quote', data: { blocks: [{ item: '1' }, { item: { quote: MARKERS.quote } }] } },
  { name: 'wildcards three levels deep leak nothing', who: 'editor', path: '/items/articles?fields=*.*.*&limit=-1', status: 200, check: (r) => expect(r.body.data).toHaveLength(4) },
  { name: 'authors wildcards leak nothing', who: 'editor', path: '/items/authors?fields=*.*.*', status: 200, check: (r) => expect(r.body.data).toHaveLength(1) },
  forbidden('public', 'public: relation it may not read', '/items/articles?fields=author.name', 'author'),
  forbidden('public', 'public: o2m it may not read', '/items/articles?fields=comments.body', 'comments'),
  forbidden('editor', 'deep _filter on forbidden field', `/items/articles?${q({ fields: 'id,comments.body', deep: { comments: { _filter: { approved: { _eq: false } } } } })}`, 'approved'),
  {
    name: 'deep _filter cannot reach hidden rows',
    who: 'editor',
    path: `/items/articles/1?${q({ fields: 'id,comments.body', deep: { comments: { _filter: { body: { _eq: MARKERS.spamBody } } } } })}`,
    data: { id: 1, comments: [] },
  },
  {
    name: 'deep _filter on allowed field',
    who: 'editor',
    path: `/items/articles/1?${q({ fields: 'id,comments.body', deep: { comments: { _filter: { body: { _eq: 'Nice' } } } } })}`,
    data: { id: 1, comments: [{ body: 'Nice' }] },
  },
  forbidden('editor', 'deep _sort on forbidden field', `/items/articles?${q({ fields: 'comments.body', deep: { comments: { _sort: ['approved'] } } })}`, 'approved'),
  forbidden('editor', 'deep _filter on m2o forbidden field', `/items/articles?${q({ fields: 'author.name', deep: { author: { _filter: { email: { _nnull: true } } } } })}`, 'email'),
  {
    name: 'deep _search does not match hidden rows',
    who: 'editor',
    path: `/items/articles/1?${q({ fields: 'comments.body', deep: { comments: { _search: 'MARK_SPAM' } } })}`,
    data: { comments: [] },
  },
  forbidden('editor', 'deep into m2m collection without permission', `/items/articles?${q({ fields: 'tags.tags_id.id', deep: { tags: { tags_id: { _filter: { label: { _eq: 'news' } } } } } })}`),
  {
    name: 'deep _filter on m2a readable collection',
    who: 'editor',
    path: `/items/articles/1?${q({ fields: 'blocks.item:block_text.text', deep: { blocks: { 'item:block_text': { _filter: { text: { _eq: 'nope' } } } } } })}`,
    data: { blocks: [{ item: null }, { item: '1' }] },
  },
];

// ─── Filter, sort, search ────────────────────────────────────────────────────────────────────────────
const ids = (query: Record<string, unknown>) => `/items/articles?${q({ fields: 'id', ...query })}`;
const FILTER_SORT_SEARCH: Case[] = [
  forbidden('editor', 'filter on forbidden field', ids({ filter: { secret_note: { _contains: 'MARK' } } }), 'secret_note'),
  forbidden('editor', 'filter _null on forbidden field', ids({ filter: { secret_note: { _null: true } } }), 'secret_note'),
  forbidden('editor', 'filter forbidden field inside _or', ids({ filter: { _or: [{ id: { _eq: 1 } }, { secret_note: { _eq: 'x' } }] } }), 'secret_note'),
  forbidden('editor', 'filter forbidden field inside _and', ids({ filter: { _and: [{ id: { _eq: 1 } }, { _or: [{ secret_note: { _nnull: true } }] }] } }), 'secret_note'),
  forbidden('editor', 'filter m2o forbidden field', ids({ filter: { author: { email: { _eq: MARKERS.authorEmail } } } }), 'email'),
  forbidden('editor', 'filter m2o rule field', ids({ filter: { author: { visible: { _eq: false } } } }), 'visible'),
  forbidden('editor', 'filter o2m forbidden field', ids({ filter: { comments: { approved: { _eq: false } } } }), 'approved'),
  forbidden('editor', 'filter _some forbidden field', ids({ filter: { comments: { _some: { approved: { _eq: false } } } } }), 'approved'),
  forbidden('editor', 'filter m2m collection without permission', ids({ filter: { tags: { tags_id: { label: { _eq: 'news' } } } } }), 'label'),
  forbidden('editor', 'filter m2a collection without permission', ids({ filter: { blocks: { 'item:block_quote': { quote: { _contains: 'MARK' } } } } }), 'quote'),
  forbidden('public', 'public filter on field outside list', ids({ filter: { status: { _eq: 'published' } } }), 'status'),
  forbidden('editor', 'filter on unknown field looks forbidden', ids({ filter: { nope: { _eq: 1 } } }), 'nope'),
  { name: 'filter _some on hidden comment matches nothing', who: 'editor', path: ids({ filter: { comments: { _some: { body: { _eq: MARKERS.spamBody } } } } }), ids: [] },
  { name: 'filter _none on hidden comment matches all', who: 'editor', path: ids({ filter: { comments: { _none: { body: { _eq: MARKERS.spamBody } } } } }), ids: [1, 2, 3, 6] },
  { name: 'filter hidden author name', who: 'editor', path: ids({ filter: { author: { name: { _eq: MARKERS.ghostName } } } }), ids: [] },
  { name: 'filter hidden author reads as null', who: 'editor', path: ids({ filter: { author: { name: { _null: true } } } }), ids: [2, 6] },
  { name: 'filter on hidden status value', who: 'editor', path: ids({ filter: { status: { _eq: 'archived' } } }), ids: [] },
  { name: 'filter on hidden title', who: 'editor', path: ids({ filter: { title: { _eq: MARKERS.draftTitle } } }), ids: [] },
  { name: 'count() counts visible comments only (>=2)', who: 'editor', path: ids({ filter: { 'count(comments)': { _gte: 2 } } }), ids: [] },
  { name: 'count() counts visible comments only (=1)', who: 'editor', path: ids({ filter: { 'count(comments)': { _eq: 1 } } }), ids: [1, 2] },
  { name: 'admin count() sees all comments', who: 'admin', path: ids({ filter: { 'count(comments)': { _gte: 2 } } }), ids: [1] },
  { name: 'filter m2a readable text', who: 'editor', path: ids({ filter: { blocks: { 'item:block_text': { text: { _contains: 'MARK' } } } } }), ids: [] },
  { name: 'admin filter m2a hidden text', who: 'admin', path: ids({ filter: { blocks: { 'item:block_text': { text: { _contains: 'MARK' } } } } }), ids: [5] },
  { name: 'filter $CURRENT_USER', who: 'editor', path: ids({ filter: { owner: { _eq: '$CURRENT_USER' } } }), ids: [3, 6] },
  { name: 'filter by id on an invisible item', who: 'editor', path: ids({ filter: { id: { _in: [4, 5] } } }), ids: [] },
  forbidden('editor', 'sort by forbidden field', ids({ sort: 'secret_note' }), 'secret_note'),
  forbidden('editor', 'sort desc by forbidden field', ids({ sort: '-secret_note' }), 'secret_note'),
  forbidden('editor', 'sort by forbidden related field', ids({ sort: '-author.email' }), 'email'),
  forbidden('public', 'public sort by field outside list', ids({ sort: 'rating' }), 'rating'),
  { name: 'sort by related name: hidden author sorts as null', who: 'editor', path: ids({ sort: 'author.name' }), ids: [1, 3, 2, 6] },
  { name: 'sort by rating', who: 'editor', path: ids({ sort: '-rating' }), ids: [1, 2, 6, 3] },
  { name: 'sort by count of visible comments', who: 'editor', path: ids({ sort: '-count(comments),id' }), ids: [1, 2, 3, 6] },
  forbidden('editor', 'sort o2m by forbidden field', ids({ sort: 'comments.approved' }), 'approved'),
  forbidden('editor', 'sort desc o2m by forbidden field', ids({ sort: '-comments.approved' }), 'approved'),
  forbidden('editor', 'sort m2m through collection without permission', ids({ sort: 'tags.tags_id.label' }), 'label'),
  forbidden('public', 'public sort o2m outside list', ids({ sort: 'comments.body' }), 'comments'),
  { name: 'sort o2m by visible comments, each article once', who: 'editor', path: ids({ sort: '-comments.body' }), ids: [3, 6, 2, 1] },
  { name: 'search skips forbidden fields', who: 'editor', path: ids({ search: MARKERS.secretNote }), ids: [] },
  { name: 'search skips hidden rows', who: 'editor', path: ids({ search: MARKERS.draftTitle }), ids: [] },
  { name: 'search finds visible rows', who: 'editor', path: ids({ search: 'Pub' }), ids: [1, 2] },
  { name: 'search numeric: hidden row rating', who: 'editor', path: ids({ search: '4' }), ids: [] },
  { name: 'admin search finds the secret', who: 'admin', path: ids({ search: MARKERS.secretNote }), ids: [1, 2, 3, 4, 5] },
  { name: 'public search skips status', who: 'public', path: ids({ search: 'published' }), ids: [] },
  { name: 'search authors skips email', who: 'editor', path: `/items/authors?${q({ fields: 'id', search: MARKERS.authorEmail })}`, ids: [] },
  { name: 'search authors skips hidden rows', who: 'editor', path: `/items/authors?${q({ fields: 'id', search: MARKERS.ghostName })}`, ids: [] },
  { name: 'search comments skips hidden rows', who: 'editor', path: `/items/comments?${q({ fields: 'id', search: 'MARK_SPAM' })}`, ids: [] },
];

// ─── Aggregate, groupBy, alias, meta ─────────────────────────────────────────────────────────────────
const art = (query: Record<string, unknown>) => `/items/articles?${q(query)}`;
const AGGREGATES: Case[] = [
  { name: 'count * counts visible rows', who: 'editor', path: art({ 'aggregate[count]': '*' }), data: [{ count: 4 }] },
  { name: 'public count', who: 'public', path: art({ 'aggregate[count]': '*' }), data: [{ count: 2 }] },
  { name: 'admin count', who: 'admin', path: art({ 'aggregate[count]': '*' }), data: [{ count: 6 }] },
  { name: 'sum over visible rows', who: 'editor', path: art({ 'aggregate[sum]': 'rating' }), data: [{ sum: { rating: 11 } }] },
  { name: 'countDistinct over visible rows', who: 'editor', path: art({ 'aggregate[countDistinct]': 'author' }), data: [{ countDistinct: { author: 2 } }] },
  { name: 'groupBy status over visible rows', who: 'editor', path: art({ 'aggregate[count]': '*', groupBy: 'status' }), data: [{ status: 'draft', count: 1 }, { status: 'published', count: 2 }, { status: 'review', count: 1 }] },
  forbidden('editor', 'count of forbidden field', art({ 'aggregate[count]': 'secret_note' }), 'secret_note'),
  forbidden('editor', 'max of forbidden field', art({ 'aggregate[max]': 'secret_note' }), 'secret_note'),
  forbidden('editor', 'groupBy forbidden field', art({ 'aggregate[count]': '*', groupBy: 'secret_note' }), 'secret_note'),
  forbidden('public', 'public max of field outside list', art({ 'aggregate[max]': 'rating' }), 'rating'),
  forbidden('public', 'public groupBy field outside list', art({ 'aggregate[count]': '*', groupBy: 'status' }), 'status'),
  { name: 'comments count visible', who: 'editor', path: `/items/comments?${q({ 'aggregate[count]': '*' })}`, data: [{ count: 2 }] },
  forbidden('editor', 'comments groupBy rule field', `/items/comments?${q({ 'aggregate[count]': '*', groupBy: 'approved' })}`, 'approved'),
  forbidden('editor', 'alias of forbidden field', art({ 'alias[x]': 'secret_note', fields: 'x' }), 'secret_note'),
  { name: 'alias of allowed field', who: 'editor', path: art({ 'alias[x]': 'title', fields: 'id,x', filter: { id: { _eq: 1 } } }), data: [{ id: 1, x: 'Pub One' }] },
  forbidden('editor', 'alias of relation with deep filter on forbidden field', art({ 'alias[c]': 'comments', fields: 'c.body', deep: { c: { _filter: { approved: { _eq: false } } } } }), 'approved'),
  {
    name: 'alias of relation keeps the related rule',
    who: 'editor',
    path: art({ 'alias[c]': 'comments', fields: 'id,c.body', filter: { id: { _eq: 1 } } }),
    data: [{ id: 1, c: [{ body: 'Nice' }] }],
  },
  forbidden('public', 'public alias of field outside list', art({ 'alias[s]': 'status', fields: 's' }), 'status'),
  { name: 'meta counts visible rows', who: 'editor', path: art({ fields: 'id', meta: '*' }), ids: [1, 2, 3, 6], meta: { total_count: 4, filter_count: 4 } },
  { name: 'meta filter_count', who: 'editor', path: art({ fields: 'id', meta: '*', filter: { status: { _eq: 'published' } } }), ids: [1, 2], meta: { total_count: 4, filter_count: 2 } },
  { name: 'meta with search for hidden value', who: 'editor', path: art({ fields: 'id', meta: '*', search: 'MARK' }), ids: [], meta: { total_count: 4, filter_count: 0 } },
  { name: 'public meta', who: 'public', path: art({ meta: '*' }), meta: { total_count: 2, filter_count: 2 }, status: 200 },
  { name: 'authors meta', who: 'editor', path: `/items/authors?fields=id&meta=*`, ids: [1], meta: { total_count: 1, filter_count: 1 } },
  { name: 'admin meta', who: 'admin', path: art({ fields: 'id', meta: 'total_count', limit: 1 }), ids: [1], meta: { total_count: 6 } },
];

// ─── System collections (SPEC §6 defaults) ───────────────────────────────────────────────────────────
const SYSTEM: Case[] = [
  { name: '/users: only self', who: 'app', path: '/users?fields=id', ids: (x) => [x.ids.app] },
  {
    name: '/users: only the SPEC §6 fields',
    who: 'app',
    path: '/users',
    status: 200,
    check: (r) => expect(Object.keys(r.body.data[0]).sort()).toEqual([...OWN_USER_FIELDS].sort()),
  },
  { name: '/users: password concealed', who: 'app', path: '/users?fields=password,email', data: [{ password: '**********', email: 'app@example.com' }] },
  forbidden('app', '/users: another user by id', (x) => `/users/${x.ids.editor}`),
  forbidden('app', '/users: admin by id', (x) => `/users/${x.ids.admin}`),
  forbidden('app', '/users: token is not in the list', '/users?fields=token', 'token'),
  forbidden('app', '/users: email_notifications is not in the list', '/users?fields=email_notifications', 'email_notifications'),
  forbidden('app', '/users: filter on a field outside the list', '/users?filter[provider][_eq]=default', 'provider'),
  { name: '/users: filter on another id finds nothing', who: 'app', path: (x) => `/users?filter[id][_eq]=${x.ids.admin}&fields=id`, ids: [] },
  { name: '/users: search for another email finds nothing', who: 'app', path: '/users?search=admin@example.com&fields=id', ids: [] },
  { name: '/users: meta counts self only', who: 'app', path: '/users?fields=id&meta=*', meta: { total_count: 1, filter_count: 1 }, status: 200 },
  { name: '/users: role expands only the own role', who: 'app', path: '/users?fields=role.name', data: [{ role: { name: 'App user' } }] },
  forbidden('public', '/users: public', '/users'),
  { name: '/users/me', who: 'app', path: '/users/me?fields=id,first_name,email', data: (x: LeakFixture) => ({ id: x.ids.app, first_name: 'Appy', email: 'app@example.com' }) },
  forbidden('app', '/users/me: field outside the list', '/users/me?fields=token', 'token'),
  forbidden('public', '/users/me: public', '/users/me'),
  { name: '/roles: only own', who: 'app', path: '/roles?fields=id,name', data: (x: LeakFixture) => [{ id: x.ids.appRole, name: 'App user' }] },
  { name: '/roles: editor only own, users only self', who: 'editor', path: '/roles?fields=id,users', data: (x: LeakFixture) => [{ id: x.ids.editorRole, users: [x.ids.editor] }] },
  forbidden('app', '/roles: another role by id', (x) => `/roles/${x.ids.editorRole}`),
  forbidden('public', '/roles: public', '/roles'),
  { name: '/permissions: app role has none', who: 'app', path: '/permissions', data: [] },
  {
    name: '/permissions: editor only its role',
    who: 'editor',
    path: '/permissions?fields=role,collection,action&sort=id',
    status: 200,
    check: (r, x) => {
      expect(r.body.data).toHaveLength(9);
      expect(new Set(r.body.data.map((row: { role: string }) => row.role))).toEqual(new Set([x.ids.editorRole]));
    },
  },
  forbidden('public', '/permissions: public', '/permissions'),
  { name: '/revisions: nothing', who: 'app', path: '/revisions', status: 403 },
  { name: '/revisions: editor nothing', who: 'editor', path: '/revisions', status: 403 },
  { name: '/settings: readable', who: 'app', path: '/settings?fields=project_name', data: { project_name: 'Tessera' } },
  forbidden('public', '/settings: not for the public', '/settings'),
  forbidden('app', '/folders: no default', '/folders'),
  forbidden('app', '/webhooks: no default', '/webhooks'),
  { name: '/settings: no update', who: 'app', method: 'patch', path: '/settings', body: { project_name: 'Mine' }, status: 403 },
  { name: '/settings: unchanged', who: 'app', path: '/settings?fields=project_name', data: { project_name: 'Tessera' } },
  {
    name: '/collections: app user sees only default-readable system collections',
    who: 'app',
    path: '/collections',
    status: 200,
    check: (r) =>
      expect(r.body.data.map((item: { collection: string }) => item.collection).sort()).toEqual(
        [
          'tessera_activity',
          'tessera_collections',
          'tessera_fields',
          'tessera_flows',
          'tessera_notifications',
          'tessera_permissions',
          'tessera_presets',
          'tessera_relations',
          'tessera_roles',
          'tessera_settings',
          'tessera_shares',
          'tessera_translations',
          'tessera_users',
        ].sort(),
      ),
  },
  {
    name: '/collections: editor sees readable user collections only',
    who: 'editor',
    path: '/collections',
    status: 200,
    check: (r) =>
      expect(
        r.body.data
          .map((item: { collection: string }) => item.collection)
          .filter((name: string) => !name.startsWith('tessera_'))
          .sort(),
      ).toEqual(['articles', 'articles_blocks', 'articles_tags', 'authors', 'block_text', 'comments']),
  },
  forbidden('editor', '/collections/vault', '/collections/vault'),
  forbidden('public', '/collections: public', '/collections'),
  {
    name: '/fields/articles: readable fields only',
    who: 'editor',
    path: '/fields/articles',
    status: 200,
    check: (r) => expect(r.body.data.map((item: { field: string }) => item.field).sort()).toEqual([...EDITOR_ARTICLE_FIELDS].sort()),
  },
  { name: '/fields/authors: readable fields only', who: 'editor', path: '/fields/authors', status: 200, check: (r) => expect(r.body.data.map((item: { field: string }) => item.field).sort()).toEqual(['articles', 'id', 'name']) },
  forbidden('editor', '/fields/vault', '/fields/vault'),
  forbidden('editor', '/fields/articles/secret_note', '/fields/articles/secret_note'),
  {
    name: '/fields: no field of an unreadable collection',
    who: 'editor',
    path: '/fields',
    status: 200,
    check: (r) => {
      const names = r.body.data.map((item: { collection: string; field: string }) => `${item.collection}.${item.field}`);
      expect(names.filter((name: string) => /^(vault|tags|block_quote)\./.test(name) || name === 'articles.secret_note' || name === 'authors.email')).toEqual([]);
      expect(names).toContain('articles.title');
    },
  },
  {
    name: '/permissions/me: app user has exactly the SPEC §6 defaults',
    who: 'app',
    path: '/permissions/me',
    status: 200,
    check: (r) =>
      expect(r.body.data.map((row: { collection: string; action: string }) => `${row.collection}:${row.action}`)).toEqual([
        'tessera_activity:create',
        'tessera_activity:read',
        'tessera_collections:read',
        'tessera_fields:read',
        'tessera_flows:read',
        'tessera_notifications:read',
        'tessera_notifications:update',
        'tessera_permissions:read',
        'tessera_presets:create',
        'tessera_presets:delete',
        'tessera_presets:read',
        'tessera_presets:update',
        'tessera_relations:read',
        'tessera_roles:read',
        'tessera_settings:read',
        'tessera_shares:read',
        'tessera_translations:read',
        'tessera_users:read',
      ]),
  },
  {
    name: '/permissions/me: users read limited to the listed fields',
    who: 'app',
    path: '/permissions/me',
    status: 200,
    check: (r) => {
      const users = r.body.data.find((row: { collection: string; action: string }) => row.collection === 'tessera_users' && row.action === 'read');
      expect(users).toEqual({ collection: 'tessera_users', action: 'read', fields: [...OWN_USER_FIELDS].sort(), permissions: { id: { _eq: '$CURRENT_USER' } }, validation: {}, presets: null });
    },
  },
  {
    name: '/permissions/me: flows read limited to active manual flows and their button fields',
    who: 'app',
    path: '/permissions/me',
    status: 200,
    check: (r) => {
      const flows = r.body.data.find((row: { collection: string; action: string }) => row.collection === 'tessera_flows' && row.action === 'read');
      expect(flows).toEqual({
        collection: 'tessera_flows',
        action: 'read',
        fields: ['color', 'icon', 'id', 'name', 'options', 'status', 'trigger'],
        permissions: { _and: [{ trigger: { _eq: 'manual' } }, { status: { _eq: 'active' } }] },
        validation: {},
        presets: null,
      });
    },
  },
  {
    name: '/permissions/me: public',
    who: 'public',
    path: '/permissions/me',
    data: [{ collection: 'articles', action: 'read', fields: ['id', 'title'], permissions: { status: { _eq: 'published' } }, validation: {}, presets: null }],
  },
  {
    name: '/permissions/me: editor stored rows replace nothing of the defaults',
    who: 'editor',
    path: '/permissions/me',
    status: 200,
    check: (r) => {
      const keys = r.body.data.map((row: { collection: string; action: string }) => `${row.collection}:${row.action}`);
      expect(keys).toHaveLength(27);
      expect(keys).toContain('articles:update');
      expect(keys).toContain('tessera_users:read');
      expect(keys).not.toContain('tags:read');
    },
  },
];

describe('leak matrix: reads', () => {
  it('has at least 100 cases in all', () => {
    expect(DIRECT.length + RELATIONAL.length + FILTER_SORT_SEARCH.length + AGGREGATES.length + SYSTEM.length + WRITE_CASES).toBeGreaterThanOrEqual(100);
  });
  for (const [group, cases] of [
    ['direct', DIRECT],
    ['relational', RELATIONAL],
    ['filter/sort/search', FILTER_SORT_SEARCH],
    ['aggregate/alias/meta', AGGREGATES],
    ['system', SYSTEM],
  ] as const) {
    describe(group, () => {
      for (const c of cases) it(`${c.who}: ${c.name}`, () => run(c));
    });
  }
});

// ─── Writes: each checks the database, not only the answer ───────────────────────────────────────────
let WRITE_CASES = 0;
const writeIt = (name: string, test: () => Promise<void>) => {
  WRITE_CASES++;
  it(name, test);
};

describe('leak matrix: writes', () => {
  const W = { w1: 0, w2: 0, w3: 0, w4: 0 };
  const row = (id: number) => f.t.system.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirst();
  const count = async (table: string) => Number((await f.t.system.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const counts = async () => ({ articles: await count('articles'), comments: await count('comments'), authors: await count('authors'), articles_tags: await count('articles_tags'), tags: await count('tags') });
  const expectError = (response: Response, status: number, code: string, field?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.errors[0].extensions.code).toBe(code);
    if (field !== undefined) expect(response.body.errors[0].extensions.field).toBe(field);
  };

  beforeAll(async () => {
    const created = await send('admin', 'post', '/items/articles', [
      { title: 'W1', status: 'draft', owner: f.ids.editor, rating: 1 },
      { title: 'W2', status: 'draft', owner: f.ids.editor, rating: 1 },
      { title: 'W3', status: 'draft', owner: f.ids.editor2, rating: 1 },
      { title: 'W4', status: 'published', owner: f.ids.editor, rating: 1 },
    ]);
    expect(created.status).toBe(200);
    [W.w1, W.w2, W.w3, W.w4] = created.body.data.map((item: { id: number }) => item.id);
  });

  writeIt('editor creates: presets applied, forbidden preset fields not needed', async () => {
    const response = await send('editor', 'post', '/items/articles?fields=id,title,status,owner,rating', { title: 'Preset check' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ title: 'Preset check', status: 'draft', owner: f.ids.editor, rating: 1 });
    const stored = await row(response.body.data.id);
    expect(stored).toMatchObject({ title: 'Preset check', status: 'draft', owner: f.ids.editor, rating: 1, secret_note: null });
  });
  writeIt('editor creates with a forbidden field: 403 naming it, nothing written', async () => {
    const before = await counts();
    expectError(await send('editor', 'post', '/items/articles', { title: 'Sneaky', secret_note: 'x' }), 403, 'FORBIDDEN', 'secret_note');
    expect(await counts()).toEqual(before);
  });
  writeIt('editor creates failing validation: 400 FAILED_VALIDATION naming the field', async () => {
    const before = await counts();
    expectError(await send('editor', 'post', '/items/articles', { title: 'Bold', status: 'published' }), 400, 'FAILED_VALIDATION', 'status');
    expect(await counts()).toEqual(before);
  });
  writeIt('editor batch create with one forbidden item: nothing written', async () => {
    const before = await counts();
    expectError(await send('editor', 'post', '/items/articles', [{ title: 'ok one' }, { title: 'bad one', secret_note: 'x' }]), 403, 'FORBIDDEN', 'secret_note');
    expect(await counts()).toEqual(before);
  });
  writeIt('nested o2m create into a collection without create permission: refused whole', async () => {
    const before = await counts();
    const response = await send('editor', 'post', '/items/articles', { title: 'With comment', comments: [{ body: 'hello', approved: true }] });
    expectError(response, 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
  });
  writeIt('nested m2o create into a collection without create permission: refused whole', async () => {
    const before = await counts();
    expectError(await send('editor', 'post', '/items/articles', { title: 'With author', author: { name: 'New author' } }), 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
  });
  writeIt('nested m2m create through a junction without permission: refused whole', async () => {
    const before = await counts();
    expectError(await send('editor', 'post', '/items/articles', { title: 'With tag', tags: [{ tags_id: { label: 'x' } }] }), 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
  });
  writeIt('nested o2m in an update: refused whole, the scalar change rolled back', async () => {
    const before = await counts();
    expectError(await send('editor', 'patch', `/items/articles/${W.w1}`, { title: 'changed', comments: [{ body: 'x' }] }), 403, 'FORBIDDEN');
    expect((await row(W.w1))?.title).toBe('W1');
    expect(await counts()).toEqual(before);
  });
  writeIt('nested o2m linking existing comments in an update: refused (no update on comments)', async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w1}`, { comments: [f.ids.comments.nice] }), 403, 'FORBIDDEN');
    const comment = await f.t.system.db.selectFrom('comments').select('article').where('id', '=', f.ids.comments.nice).executeTakeFirstOrThrow();
    expect(comment.article).toBe(1);
  });
  writeIt('editor updates own draft', async () => {
    const response = await send('editor', 'patch', `/items/articles/${W.w1}?fields=id,title`, { title: 'W1 edited' });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: W.w1, title: 'W1 edited' });
    expect((await row(W.w1))?.title).toBe('W1 edited');
  });
  writeIt("editor cannot update another editor's draft", async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w3}`, { title: 'hacked' }), 403, 'FORBIDDEN');
    expect((await row(W.w3))?.title).toBe('W3');
  });
  writeIt('editor cannot update own published article', async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w4}`, { title: 'hacked' }), 403, 'FORBIDDEN');
    expect((await row(W.w4))?.title).toBe('W4');
  });
  writeIt('editor cannot update an invisible article', async () => {
    expectError(await send('editor', 'patch', '/items/articles/5', { title: 'hacked' }), 403, 'FORBIDDEN');
    expect((await row(5))?.title).toBe(MARKERS.archivedTitle);
  });
  writeIt('editor update with a forbidden field: 403 naming it', async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w1}`, { secret_note: 'x' }), 403, 'FORBIDDEN', 'secret_note');
    expect((await row(W.w1))?.secret_note).toBeNull();
  });
  writeIt('editor update with a readable but not updatable field: 403', async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w1}`, { owner: f.ids.editor2 }), 403, 'FORBIDDEN', 'owner');
    expect((await row(W.w1))?.owner).toBe(f.ids.editor);
  });
  writeIt('editor update failing validation', async () => {
    expectError(await send('editor', 'patch', `/items/articles/${W.w1}`, { status: 'published' }), 400, 'FAILED_VALIDATION', 'status');
    expect((await row(W.w1))?.status).toBe('draft');
  });
  writeIt('batch update by keys mixing allowed and forbidden: nothing written', async () => {
    expectError(await send('editor', 'patch', '/items/articles', { keys: [W.w1, W.w3], data: { rating: 9 } }), 403, 'FORBIDDEN');
    expect((await row(W.w1))?.rating).toBe(1);
    expect((await row(W.w3))?.rating).toBe(1);
  });
  writeIt('batch update by array mixing allowed and forbidden: nothing written', async () => {
    expectError(await send('editor', 'patch', '/items/articles', [{ id: W.w1, rating: 7 }, { id: W.w4, rating: 7 }]), 403, 'FORBIDDEN');
    expect((await row(W.w1))?.rating).toBe(1);
    expect((await row(W.w4))?.rating).toBe(1);
  });
  writeIt('update by query reaching a readable but not updatable item: nothing written', async () => {
    expectError(await send('editor', 'patch', '/items/articles', { query: { filter: { title: { _in: ['W1 edited', 'W4'] } } }, data: { rating: 8 } }), 403, 'FORBIDDEN');
    expect((await row(W.w1))?.rating).toBe(1);
    expect((await row(W.w4))?.rating).toBe(1);
  });
  writeIt('update by query never reaches invisible items', async () => {
    const response = await send('editor', 'patch', '/items/articles?fields=id', { query: { filter: { id: { _in: [W.w2, W.w3] } } }, data: { rating: 4 } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual([{ id: W.w2 }]);
    expect((await row(W.w2))?.rating).toBe(4);
    expect((await row(W.w3))?.rating).toBe(1);
  });
  writeIt('update with no keys, or by a query matching nothing: 200 and nothing written', async () => {
    const none = await send('editor', 'patch', '/items/articles', { keys: [], data: { rating: 5 } });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.data).toEqual([]);
    const nothing = await send('editor', 'patch', '/items/articles', { query: { filter: { id: { _eq: 5 } } }, data: { rating: 5 } });
    expect(nothing.status, JSON.stringify(nothing.body)).toBe(200);
    expect(nothing.body.data).toEqual([]);
    expect((await row(5))?.rating).toBe(4);
    expectError(await send('editor', 'patch', '/items/articles', { keys: [], data: { secret_note: 'x' } }), 403, 'FORBIDDEN', 'secret_note');
  });
  writeIt('update by query filtering on a forbidden field: 403, nothing written', async () => {
    expectError(await send('editor', 'patch', '/items/articles', { query: { filter: { secret_note: { _null: true } } }, data: { rating: 6 } }), 403, 'FORBIDDEN', 'secret_note');
    expect((await row(W.w2))?.rating).toBe(4);
  });
  writeIt('batch delete mixing allowed and forbidden: nothing deleted', async () => {
    expectError(await send('editor', 'delete', '/items/articles', [W.w2, W.w3]), 403, 'FORBIDDEN');
    expect(await row(W.w2)).toBeDefined();
    expect(await row(W.w3)).toBeDefined();
  });
  writeIt('batch delete by keys with an invisible item: nothing deleted', async () => {
    expectError(await send('editor', 'delete', '/items/articles', { keys: [W.w2, 5] }), 403, 'FORBIDDEN');
    expect(await row(W.w2)).toBeDefined();
    expect(await row(5)).toBeDefined();
  });
  writeIt('delete by query reaching own published: nothing deleted', async () => {
    expectError(await send('editor', 'delete', '/items/articles', { query: { filter: { title: { _in: ['W2', 'W4'] } } } }), 403, 'FORBIDDEN');
    expect(await row(W.w2)).toBeDefined();
    expect(await row(W.w4)).toBeDefined();
  });
  writeIt("delete another editor's draft: 403", async () => {
    expectError(await send('editor', 'delete', `/items/articles/${W.w3}`), 403, 'FORBIDDEN');
    expect(await row(W.w3)).toBeDefined();
  });
  writeIt('delete own draft', async () => {
    const response = await send('editor', 'delete', `/items/articles/${W.w2}`);
    expect(response.status).toBe(204);
    expect(await row(W.w2)).toBeUndefined();
  });
  writeIt('editor cannot touch comments, authors or vault', async () => {
    const before = await counts();
    expectError(await send('editor', 'delete', '/items/comments/1'), 403, 'FORBIDDEN');
    expectError(await send('editor', 'patch', '/items/authors/1', { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await send('editor', 'post', '/items/vault', { code: 'x' }), 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
    expect(await count('vault')).toBe(1);
  });
  writeIt('public and app user cannot write articles', async () => {
    const before = await counts();
    expectError(await send('public', 'post', '/items/articles', { title: 'anon' }), 403, 'FORBIDDEN');
    expectError(await send('public', 'patch', '/items/articles/1', { title: 'anon' }), 403, 'FORBIDDEN');
    expectError(await send('public', 'delete', '/items/articles/1'), 403, 'FORBIDDEN');
    expectError(await send('app', 'post', '/items/articles', { title: 'app' }), 403, 'FORBIDDEN');
    expect(await counts()).toEqual(before);
    expect((await row(1))?.title).toBe('Pub One');
  });
  writeIt('admin bypasses the rules', async () => {
    const response = await send('admin', 'patch', `/items/articles/${W.w3}?fields=id,secret_note`, { secret_note: 'admin wrote' });
    expect(response.body.data).toEqual({ id: W.w3, secret_note: 'admin wrote' });
  });

  // System collections
  writeIt('/activity: create needs a comment', async () => {
    expectError(await send('app', 'post', '/activity', { collection: 'articles', item: '1' }), 400, 'FAILED_VALIDATION', 'comment');
  });
  writeIt('/activity: a comment gets the server-set action and user; others cannot be forged', async () => {
    expectError(await send('app', 'post', '/activity', { comment: 'x', collection: 'articles', item: '1', action: 'delete' }), 403, 'FORBIDDEN', 'action');
    expectError(await send('app', 'post', '/activity', { comment: 'x', collection: 'articles', item: '1', user: f.ids.admin }), 403, 'FORBIDDEN', 'user');
    const response = await send('app', 'post', '/activity?fields=action,user,comment', { comment: 'hello', collection: 'articles', item: '1' });
    expect(response.body.data).toEqual({ action: 'comment', user: f.ids.app, comment: 'hello' });
  });
  writeIt('/activity: read own only', async () => {
    const response = await send('app', 'get', '/activity?fields=user,action,comment');
    expect(response.body.data).toEqual([{ user: f.ids.app, action: 'comment', comment: 'hello' }]);
    expect((await send('editor', 'get', '/activity?fields=id')).body.data.length).toBeGreaterThan(0);
    expect((await send('editor', 'get', '/activity?fields=user')).body.data.every((item: { user: string }) => item.user === f.ids.editor)).toBe(true);
  });
  writeIt('/presets: read own, role-level and global; write only own', async () => {
    const db = f.t.system.db;
    const insert = (bookmark: string, user: string | null, role: string | null) =>
      db.insertInto('tessera_presets').values({ bookmark, user, role, collection: 'articles' }).returning('id').executeTakeFirstOrThrow();
    const own = await insert('own', f.ids.app, null);
    const roleLevel = await insert('role', null, f.ids.appRole);
    const global = await insert('global', null, null);
    const otherUser = await insert('other user', f.ids.editor, null);
    await insert('other role', null, f.ids.editorRole);
    await insert('own user, other role', f.ids.editor, f.ids.appRole);
    const read = await send('app', 'get', '/presets?fields=bookmark&sort=id');
    expect(read.body.data).toEqual([{ bookmark: 'own' }, { bookmark: 'role' }, { bookmark: 'global' }]);
    expectError(await send('app', 'post', '/presets', { bookmark: 'forged', user: f.ids.editor }), 400, 'FAILED_VALIDATION', 'user');
    expectError(await send('app', 'post', '/presets', { bookmark: 'no user' }), 400, 'FAILED_VALIDATION', 'user');
    expect((await send('app', 'post', '/presets', { bookmark: 'mine', user: f.ids.app })).status).toBe(200);
    expectError(await send('app', 'patch', `/presets/${otherUser.id}`, { bookmark: 'x' }), 403, 'FORBIDDEN');
    expectError(await send('app', 'patch', `/presets/${own.id}`, { user: f.ids.editor }), 400, 'FAILED_VALIDATION', 'user');
    expectError(await send('app', 'delete', `/presets/${global.id}`), 403, 'FORBIDDEN');
    expectError(await send('app', 'delete', `/presets/${roleLevel.id}`), 403, 'FORBIDDEN');
    expect((await send('app', 'patch', `/presets/${own.id}`, { bookmark: 'own renamed' })).status).toBe(200);
    const stored = await db.selectFrom('tessera_presets').select(['bookmark', 'user']).orderBy('id').execute();
    expect(stored.map((item) => item.bookmark)).toEqual(['own renamed', 'role', 'global', 'other user', 'other role', 'own user, other role', 'mine']);
  });
  writeIt('/notifications: read own, update only status of own', async () => {
    const db = f.t.system.db;
    const insert = (recipient: string, subject: string) => db.insertInto('tessera_notifications').values({ recipient, subject }).returning('id').executeTakeFirstOrThrow();
    const mine = await insert(f.ids.app, 'for app');
    const theirs = await insert(f.ids.editor, 'for editor');
    expect((await send('app', 'get', '/notifications?fields=id,subject')).body.data).toEqual([{ id: mine.id, subject: 'for app' }]);
    expectError(await send('app', 'get', `/notifications/${theirs.id}`), 403, 'FORBIDDEN');
    expectError(await send('app', 'patch', `/notifications/${mine.id}`, { subject: 'changed' }), 403, 'FORBIDDEN', 'subject');
    expectError(await send('app', 'patch', `/notifications/${theirs.id}`, { status: 'archived' }), 403, 'FORBIDDEN');
    expectError(await send('app', 'post', '/notifications', { recipient: f.ids.app, subject: 'self' }), 403, 'FORBIDDEN');
    expectError(await send('app', 'delete', `/notifications/${mine.id}`), 403, 'FORBIDDEN');
    const updated = await send('app', 'patch', `/notifications/${mine.id}?fields=status`, { status: 'archived' });
    expect(updated.body.data).toEqual({ status: 'archived' });
    const stored = await db.selectFrom('tessera_notifications').select(['id', 'status', 'subject']).orderBy('id').execute();
    expect(stored).toEqual([{ id: mine.id, status: 'archived', subject: 'for app' }, { id: theirs.id, status: 'inbox', subject: 'for editor' }]);
  });
  writeIt('/shares: read those created by the caller only', async () => {
    const db = f.t.system.db;
    const insert = (name: string, user: string) => db.insertInto('tessera_shares').values({ name, collection: 'articles', item: '1', role: f.ids.editorRole, user_created: user }).returning('id').executeTakeFirstOrThrow();
    await insert('by admin', f.ids.admin);
    const mine = await insert('by app', f.ids.app);
    expect((await send('app', 'get', '/shares?fields=id,name')).body.data).toEqual([{ id: mine.id, name: 'by app' }]);
    expect((await send('editor', 'get', '/shares?fields=id')).body.data).toEqual([]);
  });
  writeIt('/users/me PATCH: own profile fields', async () => {
    const response = await send('app', 'patch', '/users/me?fields=first_name', { first_name: 'Renamed', email_notifications: false });
    expect(response.body.data).toEqual({ first_name: 'Renamed' });
    const stored = await f.t.system.db.selectFrom('tessera_users').select(['first_name', 'email_notifications', 'role', 'status']).where('id', '=', f.ids.app).executeTakeFirstOrThrow();
    expect(stored).toEqual({ first_name: 'Renamed', email_notifications: false, role: f.ids.appRole, status: 'active' });
  });
  writeIt('/users/me PATCH: not role, status or token', async () => {
    expectError(await send('app', 'patch', '/users/me', { role: f.ids.editorRole }), 403, 'FORBIDDEN', 'role');
    expectError(await send('app', 'patch', '/users/me', { status: 'suspended' }), 403, 'FORBIDDEN', 'status');
    expectError(await send('app', 'patch', '/users/me', { token: 'my-static-token' }), 403, 'FORBIDDEN', 'token');
    expectError(await send('app', 'patch', '/users/me', { first_name: 'x', role: null }), 403, 'FORBIDDEN', 'role');
    const stored = await f.t.system.db.selectFrom('tessera_users').select(['first_name', 'role', 'status', 'token']).where('id', '=', f.ids.app).executeTakeFirstOrThrow();
    expect(stored).toEqual({ first_name: 'Renamed', role: f.ids.appRole, status: 'active', token: null });
  });
  writeIt('/users: no update of self or others through /users/:id', async () => {
    expectError(await send('app', 'patch', `/users/${f.ids.app}`, { first_name: 'x' }), 403, 'FORBIDDEN');
    expectError(await send('editor', 'patch', `/users/${f.ids.editor2}`, { first_name: 'x' }), 403, 'FORBIDDEN');
    expectError(await send('editor', 'delete', `/users/${f.ids.editor2}`), 403, 'FORBIDDEN');
    expectError(await send('editor', 'post', '/users', { email: 'new@example.com', password: 'new-password-1' }), 403, 'FORBIDDEN');
    const stored = await f.t.system.db.selectFrom('tessera_users').select('first_name').where('id', '=', f.ids.editor2).executeTakeFirstOrThrow();
    expect(stored.first_name).toBe('Edna');
  });
  writeIt('/roles and /permissions: no writes for app users', async () => {
    expectError(await send('editor', 'patch', `/roles/${f.ids.editorRole}`, { admin_access: true }), 403, 'FORBIDDEN');
    expectError(await send('editor', 'post', '/permissions', { role: f.ids.editorRole, collection: 'vault', action: 'read', fields: ['*'] }), 403, 'FORBIDDEN');
    expectError(await send('editor', 'post', '/roles', { name: 'Mine', admin_access: true }), 403, 'FORBIDDEN');
    const role = await f.t.system.db.selectFrom('tessera_roles').select('admin_access').where('id', '=', f.ids.editorRole).executeTakeFirstOrThrow();
    expect(role.admin_access).toBe(false);
    expect((await send('editor', 'get', '/items/vault')).status).toBe(403);
  });
  writeIt('/revisions: nothing, even of own writes', async () => {
    expectError(await send('editor', 'get', '/revisions?fields=id'), 403, 'FORBIDDEN');
    expectError(await send('app', 'get', '/revisions?fields=id'), 403, 'FORBIDDEN');
  });
});
