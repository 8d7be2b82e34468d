import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

export const WRITER = { email: 'writer@example.com', password: 'writer-password-1' } as const;
export const WRITER2 = { email: 'writer2@example.com', password: 'writer-password-2' } as const;

/**
 * authors (name) ← articles (title, status, author m2o; o2m `articles` on authors), tags m2m through
 * articles_tags, notes (body, owner uuid); a Writer role reading published articles, all authors and tags,
 * and only its own notes (`owner = $CURRENT_USER`); the public reads published articles and authors.
 */
export interface CacheFixture {
  t: TestApp;
  admin: string;
  tokens: { writer: string; writer2: string };
  ids: { writerRole: string; writer: string; writer2: string; authors: number[]; articles: number[]; tags: number[] };
  as(token: string | null): Record<string, string>;
  /** Sends as the admin and expects 200 or 204; answers `data`. */
  send(method: 'post' | 'patch' | 'delete', path: string, body?: unknown): Promise<any>;
}

export async function createCacheFixture(env: Record<string, string> = {}, existing?: TestApp): Promise<CacheFixture> {
  const t = existing ?? (await createTestApp({ CACHE_ENABLED: 'true', ...env }));
  const admin = await t.login();
  const as = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
  const send = async (method: 'post' | 'patch' | 'delete', path: string, body?: unknown) => {
    let request = t.request[method](path).set(as(admin));
    if (body !== undefined) request = request.send(body as object);
    const response = await request;
    expect([200, 204], `${method} ${path}: ${JSON.stringify(response.body)}`).toContain(response.status);
    return response.body?.data;
  };
  await send('post', '/collections', { collection: 'authors', fields: [{ field: 'name', type: 'string' }] });
  await send('post', '/collections', {
    collection: 'articles',
    fields: [
      { field: 'title', type: 'string' },
      { field: 'status', type: 'string', schema: { default_value: 'draft' } },
      { field: 'author', type: 'integer' },
    ],
  });
  await send('post', '/collections', { collection: 'tags', fields: [{ field: 'label', type: 'string' }] });
  await send('post', '/collections', { collection: 'articles_tags', fields: [{ field: 'articles_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }] });
  await send('post', '/collections', { collection: 'notes', fields: [{ field: 'body', type: 'string' }, { field: 'owner', type: 'uuid' }] });
  await send('post', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });

  const writerRole = (await send('post', '/roles', { name: 'Writer', app_access: false, admin_access: false })).id as string;
  const writer = (await send('post', '/users', { ...WRITER, role: writerRole })).id as string;
  const writer2 = (await send('post', '/users', { ...WRITER2, role: writerRole })).id as string;
  const published = { status: { _eq: 'published' } };
  await send('post', '/permissions', [
    { role: writerRole, collection: 'articles', action: 'read', fields: ['*'], permissions: published },
    { role: writerRole, collection: 'authors', action: 'read', fields: ['*'], permissions: {} },
    { role: writerRole, collection: 'tags', action: 'read', fields: ['*'], permissions: {} },
    { role: writerRole, collection: 'articles_tags', action: 'read', fields: ['*'], permissions: {} },
    { role: writerRole, collection: 'notes', action: 'read', fields: ['*'], permissions: { owner: { _eq: '$CURRENT_USER' } } },
    { role: null, collection: 'articles', action: 'read', fields: ['*'], permissions: published },
    { role: null, collection: 'authors', action: 'read', fields: ['*'], permissions: {} },
  ]);
  const authors = (await send('post', '/items/authors', [{ name: 'Ada' }, { name: 'Brian' }])).map((item: { id: number }) => item.id);
  const tags = (await send('post', '/items/tags', [{ label: 'news' }, { label: 'tech' }])).map((item: { id: number }) => item.id);
  const articles = (
    await send('post', '/items/articles', [
      { title: 'First', status: 'published', author: authors[0], tags: [{ tags_id: tags[0] }] },
      { title: 'Second', status: 'published', author: authors[1] },
      { title: 'Hidden', status: 'draft', author: authors[0] },
    ])
  ).map((item: { id: number }) => item.id);
  await send('post', '/items/notes', [
    { body: 'note of writer', owner: writer },
    { body: 'note of writer2', owner: writer2 },
  ]);
  const tokens = { writer: await t.login(WRITER.email, WRITER.password), writer2: await t.login(WRITER2.email, WRITER2.password) };
  return { t, admin, tokens, ids: { writerRole, writer, writer2, authors, articles, tags }, as, send };
}
