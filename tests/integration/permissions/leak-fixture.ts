import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The schema, roles, users and rows the permission leak tests share, all built through the API:
 *
 * - authors (name, email, visible; o2m articles); articles (title, status, secret_note, rating, owner,
 *   author m2o, comments o2m, tags m2m through articles_tags, blocks m2a through articles_blocks over
 *   block_text and block_quote); comments (body, approved, article); tags (label); vault (code).
 * - editor (app access): reads published or own articles without secret_note, visible authors without
 *   email, approved comments, block_text, the junctions; no permission at all on tags, block_quote or
 *   vault; creates articles (presets, validation, limited fields); updates and deletes only own drafts.
 * - the public role: reads published articles' id and title, nothing else.
 * - app user (app access, no stored permissions): only SPEC §6's defaults.
 * - the administrator.
 *
 * Every value the editor must never see carries a marker from MARKERS.
 */
export const MARKERS = {
  secretNote: 'MARK_SECRET_NOTE',
  draftTitle: 'MARK_DRAFT_TITLE',
  archivedTitle: 'MARK_ARCHIVED_TITLE',
  authorEmail: 'MARK_AUTHOR_EMAIL',
  ghostName: 'MARK_GHOST_NAME',
  spamBody: 'MARK_SPAM_BODY',
  tagLabel: 'MARK_TAG_LABEL',
  quote: 'MARK_QUOTE',
  vault: 'MARK_VAULT_CODE',
  hiddenText: 'MARK_HIDDEN_BLOCK',
} as const;

export const ALL_MARKERS: readonly string[] = Object.values(MARKERS);

export const EDITOR = { email: 'editor@example.com', password: 'editor-password-1' } as const;
export const EDITOR2 = { email: 'editor2@example.com', password: 'editor-password-2' } as const;
export const APP_USER = { email: 'app@example.com', password: 'app-user-password-1' } as const;

/** Article fields the editor may read. */
export const EDITOR_ARTICLE_FIELDS = ['id', 'title', 'status', 'rating', 'owner', 'author', 'comments', 'tags', 'blocks'];

export interface LeakFixture {
  t: TestApp;
  tokens: { admin: string; editor: string; editor2: string; app: string };
  ids: {
    editorRole: string;
    appRole: string;
    editor: string;
    editor2: string;
    app: string;
    admin: string;
    /** Articles by name. */
    a: Record<'pubOne' | 'pubTwo' | 'edDraft' | 'otherDraft' | 'archived' | 'edReview', number>;
    authors: Record<'ada' | 'ghost', number>;
    comments: Record<'nice' | 'spam' | 'thanks', number>;
    tags: Record<'news' | 'secret', number>;
  };
  /** Authorization header for a token (or none for the public). */
  as(token: string | null): Record<string, string>;
}

const COLLECTIONS: Array<[string, object[]]> = [
  ['authors', [{ field: 'name', type: 'string' }, { field: 'email', type: 'string' }, { field: 'visible', type: 'boolean', schema: { default_value: true } }]],
  [
    'articles',
    [
      { field: 'title', type: 'string' },
      { field: 'status', type: 'string', schema: { default_value: 'draft' } },
      { field: 'secret_note', type: 'string' },
      { field: 'rating', type: 'integer' },
      { field: 'owner', type: 'uuid' },
      { field: 'author', type: 'integer' },
    ],
  ],
  ['comments', [{ field: 'body', type: 'text' }, { field: 'approved', type: 'boolean', schema: { default_value: false } }, { field: 'article', type: 'integer' }]],
  ['tags', [{ field: 'label', type: 'string' }]],
  ['articles_tags', [{ field: 'articles_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }]],
  ['block_text', [{ field: 'text', type: 'text' }]],
  ['block_quote', [{ field: 'quote', type: 'text' }]],
  ['articles_blocks', [{ field: 'articles_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }]],
  ['vault', [{ field: 'code', type: 'string' }]],
];

export async function createLeakFixture(): Promise<LeakFixture> {
  const t = await createTestApp();
  const admin = await t.login();
  const as = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
  const send = async (method: 'post' | 'patch', path: string, body: unknown) => {
    const response = await t.request[method](path).set(as(admin)).send(body as object);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body.data;
  };

  for (const [collection, fields] of COLLECTIONS) await send('post', '/collections', { collection, fields });
  await send('post', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
  await send('post', '/relations', { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });
  await send('post', '/relations', { collection: 'articles_blocks', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_quote'], junction_field: 'articles_id' } });
  await send('post', '/relations', { collection: 'articles_blocks', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'blocks', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } });

  const editorRole = (await send('post', '/roles', { name: 'Editor', app_access: true, admin_access: false })).id as string;
  const appRole = (await send('post', '/roles', { name: 'App user', app_access: true, admin_access: false })).id as string;
  const editor = (await send('post', '/users', { ...EDITOR, role: editorRole, first_name: 'Eddie' })).id as string;
  const editor2 = (await send('post', '/users', { ...EDITOR2, role: editorRole, first_name: 'Edna' })).id as string;
  const app = (await send('post', '/users', { ...APP_USER, role: appRole, first_name: 'Appy' })).id as string;
  const adminId = (await t.request.get('/users/me').set(as(admin))).body.data.id as string;

  const authors = await send('post', '/items/authors', [
    { name: 'Ada', email: MARKERS.authorEmail, visible: true },
    { name: MARKERS.ghostName, email: 'ghost@example.com', visible: false },
  ]);
  const [ada, ghost] = authors.map((item: { id: number }) => item.id);
  const tags = await send('post', '/items/tags', [{ label: 'news' }, { label: MARKERS.tagLabel }]);
  const [news, secretTag] = tags.map((item: { id: number }) => item.id);
  const articles = await send('post', '/items/articles', [
    {
      title: 'Pub One',
      status: 'published',
      secret_note: MARKERS.secretNote,
      rating: 5,
      owner: editor2,
      author: ada,
      comments: [{ body: 'Nice', approved: true }, { body: MARKERS.spamBody, approved: false }],
      tags: [{ tags_id: news }, { tags_id: secretTag }],
      blocks: [
        { collection: 'block_text', item: { text: 'Intro' } },
        { collection: 'block_quote', item: { quote: MARKERS.quote } },
      ],
    },
    { title: 'Pub Two', status: 'published', secret_note: MARKERS.secretNote, rating: 3, author: ghost, comments: [{ body: 'Thanks', approved: true }] },
    { title: 'Ed Draft', status: 'draft', secret_note: MARKERS.secretNote, rating: 1, owner: editor, author: ada },
    { title: MARKERS.draftTitle, status: 'draft', secret_note: MARKERS.secretNote, rating: 2, owner: editor2, author: ada },
    { title: MARKERS.archivedTitle, status: 'archived', secret_note: MARKERS.secretNote, rating: 4, blocks: [{ collection: 'block_text', item: { text: MARKERS.hiddenText } }] },
    { title: 'Ed Review', status: 'review', rating: 2, owner: editor },
  ]);
  const [pubOne, pubTwo, edDraft, otherDraft, archived, edReview] = articles.map((item: { id: number }) => item.id);
  const comments = await t.request.get('/items/comments?fields=id,body&sort=id').set(as(admin));
  const commentId = (body: string) => comments.body.data.find((item: { body: string }) => item.body === body).id as number;
  await send('post', '/items/vault', { code: MARKERS.vault });

  const permission = (role: string | null, collection: string, action: string, rest: Record<string, unknown> = {}) => ({ role, collection, action, fields: ['*'], ...rest });
  await send('post', '/permissions', [
    permission(editorRole, 'articles', 'read', {
      fields: EDITOR_ARTICLE_FIELDS,
      permissions: { _or: [{ status: { _eq: 'published' } }, { owner: { _eq: '$CURRENT_USER' } }] },
    }),
    permission(editorRole, 'articles', 'create', {
      fields: ['title', 'status', 'rating', 'author', 'comments', 'tags', 'owner'],
      validation: { status: { _in: ['draft', 'review'] } },
      presets: { status: 'draft', owner: '$CURRENT_USER', rating: 1 },
    }),
    permission(editorRole, 'articles', 'update', {
      fields: ['title', 'status', 'rating', 'comments', 'tags'],
      permissions: { _and: [{ owner: { _eq: '$CURRENT_USER' } }, { status: { _eq: 'draft' } }] },
      validation: { status: { _in: ['draft', 'review'] } },
    }),
    permission(editorRole, 'articles', 'delete', { permissions: { _and: [{ owner: { _eq: '$CURRENT_USER' } }, { status: { _eq: 'draft' } }] } }),
    permission(editorRole, 'authors', 'read', { fields: ['id', 'name', 'articles'], permissions: { visible: { _eq: true } } }),
    permission(editorRole, 'comments', 'read', { fields: ['id', 'body', 'article'], permissions: { approved: { _eq: true } } }),
    permission(editorRole, 'articles_tags', 'read'),
    permission(editorRole, 'articles_blocks', 'read'),
    permission(editorRole, 'block_text', 'read'),
    permission(null, 'articles', 'read', { fields: ['id', 'title'], permissions: { status: { _eq: 'published' } } }),
  ]);

  return {
    t,
    as,
    tokens: { admin, editor: await t.login(EDITOR.email, EDITOR.password), editor2: await t.login(EDITOR2.email, EDITOR2.password), app: await t.login(APP_USER.email, APP_USER.password) },
    ids: {
      editorRole,
      appRole,
      editor,
      editor2,
      app,
      admin: adminId,
      a: { pubOne, pubTwo, edDraft, otherDraft, archived, edReview },
      authors: { ada, ghost },
      comments: { nice: commentId('Nice'), spam: commentId(MARKERS.spamBody), thanks: commentId('Thanks') },
      tags: { news, secret: secretTag },
    },
  };
}

/** The markers found in a response body. */
export function leakedMarkers(body: unknown): string[] {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  return ALL_MARKERS.filter((marker) => text.includes(marker));
}
