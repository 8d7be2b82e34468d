import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeakFixture, leakedMarkers, MARKERS, type LeakFixture } from '../permissions/leak-fixture.ts';

let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
});
afterAll(() => f.t.close());

type Who = 'admin' | 'editor' | 'public';
const token = (who: Who) => (who === 'public' ? null : f.tokens[who]);

async function gql(who: Who, query: string, variables?: Record<string, unknown>, path = '/graphql') {
  return f.t.request.post(path).set(f.as(token(who))).set('Accept', 'application/json').send({ query, variables });
}

describe('GraphQL schema per role', () => {
  it('has no type or field the role cannot read, in introspection and in the SDL', async () => {
    const editor = await gql('editor', '{ __schema { types { name fields { name } } } }');
    expect(editor.status).toBe(200);
    const types = new Map<string, string[]>(editor.body.data.__schema.types.map((type: { name: string; fields: { name: string }[] | null }) => [type.name, (type.fields ?? []).map((field) => field.name)]));
    expect(types.has('articles')).toBe(true);
    expect(types.get('articles')).not.toContain('secret_note');
    expect(types.get('authors')).not.toContain('email');
    for (const hidden of ['vault', 'tags', 'block_quote']) expect(types.has(hidden)).toBe(false);
    const admin = await gql('admin', '{ __type(name: "articles") { fields { name } } }');
    expect(admin.body.data.__type.fields.map((field: { name: string }) => field.name)).toContain('secret_note');
    const sdl = await f.t.request.get('/server/specs/graphql').set(f.as(token('editor'))).expect(200);
    expect(sdl.text).toContain('type articles');
    expect(sdl.text).not.toContain('secret_note');
    expect(sdl.text).not.toContain('type vault');
    const publicSdl = await f.t.request.get('/server/specs/graphql').expect(200);
    expect(publicSdl.text).toMatch(/type articles \{\s+id: ID!\s+title: String\s+\}/);
  });

  it('refuses a field outside the role schema with a 400 naming it', async () => {
    const response = await gql('editor', '{ articles { id secret_note } }');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.errors[0].message).toContain('secret_note');
    const vault = await gql('editor', '{ vault { id } }');
    expect(vault.status).toBe(400);
  });

  it('applies item rules: the same rows and values as REST, at every level', async () => {
    for (const who of ['editor', 'public', 'admin'] as const) {
      const rest = await f.t.request.get('/items/articles?fields=id,title&sort=id').set(f.as(token(who))).expect(200);
      const graph = await gql(who, '{ articles(sort: ["id"]) { id title } }');
      expect(graph.status).toBe(200);
      expect(graph.body.data.articles.map((item: { id: string; title: string }) => ({ ...item, id: Number(item.id) }))).toEqual(rest.body.data);
    }
    const nested = await gql('editor', '{ articles(sort: ["id"]) { id author { id name } comments { id body } } }');
    const restNested = await f.t.request.get('/items/articles?fields=id,author.id,author.name,comments.id,comments.body&sort=id').set(f.as(f.tokens.editor)).expect(200);
    expect(leakedMarkers(nested.body)).toEqual([]);
    expect(JSON.stringify(nested.body.data.articles.map((a: { id: string }) => a.id).map(Number))).toBe(JSON.stringify(restNested.body.data.map((a: { id: number }) => a.id)));
    expect(nested.body.data.articles.flatMap((a: { comments: unknown[] }) => a.comments).length).toBe(restNested.body.data.flatMap((a: { comments: unknown[] }) => a.comments).length);
  });

  it('answers _by_id with null for an item outside the rule, and FORBIDDEN on a write the role may not do', async () => {
    const hidden = await gql('editor', `{ articles_by_id(id: ${f.ids.a.otherDraft}) { id title } }`);
    expect(hidden.body.data.articles_by_id).toBeNull();
    expect(leakedMarkers(hidden.body)).toEqual([]);
    const visible = await gql('editor', `{ articles_by_id(id: ${f.ids.a.pubOne}) { id } }`);
    expect(visible.body.data.articles_by_id).toEqual({ id: String(f.ids.a.pubOne) });
    const update = await gql('editor', `mutation { update_articles_item(id: ${f.ids.a.pubOne}, data: { title: "x" }) { id } }`);
    expect(update.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const publicMutation = await gql('public', 'mutation { create_articles_item(data: { title: "x" }) { id } }');
    expect(publicMutation.status).toBe(400);
  });
});

describe('typed filters per role', () => {
  it('leaves a field the role cannot read out of its filter type, and refuses filtering by it', async () => {
    const inputFields = async (who: Who, type: string) => {
      const response = await gql(who, `{ __type(name: "${type}") { inputFields { name } } }`);
      return response.body.data.__type?.inputFields.map((field: { name: string }) => field.name) ?? null;
    };
    const editorArticles = await inputFields('editor', 'articles_filter');
    expect(editorArticles).toEqual(expect.arrayContaining(['title', 'status', 'author', 'comments', 'comments_func']));
    expect(editorArticles).not.toContain('secret_note');
    expect(await inputFields('editor', 'authors_filter')).not.toContain('email');
    expect(await inputFields('editor', 'vault_filter')).toBeNull();
    expect((await inputFields('public', 'articles_filter')).sort()).toEqual(['_and', '_or', 'id', 'title']);
    expect(await inputFields('admin', 'articles_filter')).toContain('secret_note');

    const probe = await gql('editor', `{ articles(filter: { secret_note: { _contains: "${MARKERS.secretNote}" } }) { id } }`);
    expect(probe.status).toBe(400);
    expect(probe.body.errors[0].extensions.errors[0].message).toContain('secret_note');
    const nested = await gql('editor', '{ articles(filter: { author: { email: { _nnull: true } } }) { id } }');
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0].extensions.errors[0].message).toContain('email');
    // A readable relational filter gives the rows REST gives.
    const graph = await gql('editor', '{ articles(filter: { author: { name: { _nnull: true } } }, sort: ["id"]) { id } }');
    const rest = await f.t.request.get('/items/articles?fields=id&sort=id&filter[author][name][_nnull]=true').set(f.as(f.tokens.editor)).expect(200);
    expect(graph.body.data.articles.map((a: { id: string }) => Number(a.id))).toEqual(rest.body.data.map((a: { id: number }) => a.id));
  });
});
