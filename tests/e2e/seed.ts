import type { TestApp } from '../helpers/test-app.ts';

/** A small newsroom schema for the browser tests: authors, and articles with an author (m2o). */
export async function seedNewsroom(app: TestApp): Promise<{ token: string; send: (method: 'post' | 'patch' | 'get', path: string, body?: unknown) => Promise<any> }> {
  const token = await app.login();
  const send = async (method: 'post' | 'patch' | 'get', path: string, body?: unknown) => {
    const request = app.request[method](path).set('Authorization', `Bearer ${token}`);
    const response = body === undefined ? await request : await request.send(body as object);
    if (response.status >= 400) throw new Error(`${method.toUpperCase()} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body?.data;
  };
  await send('post', '/collections', {
    collection: 'authors',
    meta: { icon: 'person', display_template: '{{name}}' },
    fields: [{ field: 'name', type: 'string', schema: { is_nullable: false }, meta: { required: true } }],
  });
  await send('post', '/collections', {
    collection: 'articles',
    meta: { icon: 'article', note: 'News items', display_template: '{{title}}' },
    fields: [
      { field: 'title', type: 'string', schema: { is_nullable: false }, meta: { required: true, width: 'half', note: 'The headline' } },
      { field: 'slug', type: 'string', schema: { is_unique: true }, meta: { width: 'half' } },
      { field: 'status', type: 'string', schema: { default_value: 'draft' }, meta: { interface: 'select-dropdown', width: 'half', options: { choices: [{ text: 'Draft', value: 'draft' }, { text: 'Published', value: 'published' }] } } },
      { field: 'words', type: 'integer', meta: { width: 'half', display: 'number-words', options: { words: true } } },
      { field: 'featured', type: 'boolean', meta: { width: 'half' } },
      { field: 'body', type: 'text', meta: { interface: 'input-markdown' } },
      { field: 'author', type: 'integer', meta: { special: ['m2o'], interface: 'select-dropdown-m2o' } },
    ],
  });
  await send('post', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
  await send('post', '/items/authors', [{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }]);
  return { token, send };
}
