import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Authors with posts (`authors.posts`, one-to-many) and a role that reads published posts only, for cursor tests. */
export interface CursorFixture {
  t: TestApp;
  admin: string;
  /** A role reading posts whose status is published (fields id, title, score, author) and every author. */
  reader: string;
  as(token: string): { Authorization: string };
  /** GET `path` as `token`, expecting 200; the body. */
  get(path: string, token?: string): Promise<{ data: any; meta?: Record<string, unknown> }>;
}

// 13 posts: `score` repeats (ties broken by the key), every third is a draft; author 1 has ten of them.
export const POSTS = Array.from({ length: 13 }, (_, index) => ({
  title: `Post ${String.fromCharCode(97 + ((index * 5) % 13))}`,
  score: [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3][index],
  status: index % 3 === 0 ? 'draft' : 'published',
  author: index < 10 ? 1 : 2,
}));

export async function createCursorFixture(): Promise<CursorFixture> {
  const t = await createTestApp();
  const admin = await t.login();
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (path: string, body: object) => t.request.post(path).set(as(admin)).send(body).expect(200);
  await post('/collections', { collection: 'authors', fields: [{ field: 'name', type: 'string' }] });
  await post('/collections', {
    collection: 'posts',
    fields: [
      { field: 'title', type: 'string' },
      { field: 'score', type: 'integer', schema: { is_nullable: false, default_value: 0 } },
      { field: 'status', type: 'string' },
      { field: 'author', type: 'integer' },
    ],
  });
  await post('/relations', { collection: 'posts', field: 'author', related_collection: 'authors', meta: { one_field: 'posts' } });
  await post('/items/authors', [{ name: 'Ada' }, { name: 'Bob' }]);
  await post('/items/posts', POSTS);
  const role = (await post('/roles', { name: 'Cursor reader', app_access: false })).body.data.id as string;
  await post('/permissions', { role, collection: 'posts', action: 'read', fields: 'id,title,score,author', permissions: { status: { _eq: 'published' } } });
  await post('/permissions', { role, collection: 'authors', action: 'read', fields: '*' });
  await post('/users', { email: 'cursor@example.com', password: 'cursor-password-1', role, status: 'active' });
  const reader = await t.login('cursor@example.com', 'cursor-password-1');
  const get = async (path: string, token = admin) => (await t.request.get(path).set(as(token)).expect(200)).body;
  return { t, admin, reader, as, get };
}
