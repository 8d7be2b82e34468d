import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { createLeakFixture, type LeakFixture } from '../permissions/leak-fixture.ts';

let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
});
afterAll(() => f.t.close());

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string }>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
};

async function expectValid(document: unknown): Promise<void> {
  const result = await new Validator().validate(document as Record<string, unknown>);
  expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
}

async function oas(token: string | null): Promise<Document> {
  const response = await f.t.request.get('/server/specs/oas').set(f.as(token)).expect(200);
  expect(response.headers['content-type']).toContain('application/json');
  return response.body as Document;
}

describe('GET /server/specs/oas', () => {
  it("gives the administrator every collection, field and operation, as a valid OpenAPI 3.1 document", async () => {
    const document = await oas(f.tokens.admin);
    expect(document.openapi).toBe('3.1.0');
    await expectValid(document);
    // The validator does reject a broken document (a path parameter in no known place).
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, { parameters: Record<string, unknown>[] }>> };
    broken.paths['/items/articles/{id}']!.get!.parameters[0]!.in = 'nowhere';
    expect((await new Validator().validate(broken)).valid).toBe(false);
    for (const collection of ['articles', 'authors', 'comments', 'tags', 'vault']) {
      expect(Object.keys(document.paths[`/items/${collection}`]!).sort()).toEqual(['delete', 'get', 'patch', 'post']);
      expect(Object.keys(document.paths[`/items/${collection}/{id}`]!).sort()).toEqual(['delete', 'get', 'patch']);
    }
    expect(document.paths['/items/articles']!.get!.operationId).toBe('readItemsArticles');
    expect(document.paths['/items/articles/{id}']!.get!.operationId).toBe('readSingleItemsArticles');
    const articles = document.components.schemas.ItemsArticles!.properties!;
    expect(Object.keys(articles)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'secret_note', 'rating', 'author', 'comments', 'tags']));
    // Relations: the key or the related object, by reference; o2m a list of them.
    expect(articles.author).toEqual({ anyOf: [{ anyOf: [{ type: 'integer' }, { $ref: '#/components/schemas/ItemsAuthors' }] }, { type: 'null' }] });
    expect(articles.comments).toEqual({ type: 'array', items: { anyOf: [{ type: 'integer' }, { $ref: '#/components/schemas/ItemsComments' }] } });
    expect(articles.title!.type).toEqual(['string', 'null']);
    expect(articles.id).toEqual({ type: 'integer' });
    // Many-to-any: the key, or an item of any allowed collection.
    expect(document.components.schemas.ItemsArticlesBlocks!.properties!.item).toEqual({
      anyOf: [{ anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/ItemsBlockText' }, { $ref: '#/components/schemas/ItemsBlockQuote' }] }, { type: 'null' }],
    });
    // System collections at their own paths, and /users/me for a signed-in caller.
    expect(document.paths['/users']!.get!.operationId).toBe('readUsers');
    expect(document.components.schemas.Users!.properties!.email).toBeDefined();
    expect(document.paths['/users/me']).toBeDefined();
    expect(document.paths['/auth/login']!.post!.operationId).toBe('login');
  });

  it('gives a role only its readable collections and fields and the operations it has', async () => {
    const document = await oas(f.tokens.editor);
    await expectValid(document);
    expect(document.paths['/items/vault']).toBeUndefined();
    expect(document.paths['/items/tags']).toBeUndefined();
    expect(document.components.schemas.ItemsVault).toBeUndefined();
    expect(document.components.schemas.ItemsTags).toBeUndefined();
    const articles = document.components.schemas.ItemsArticles!.properties!;
    expect(Object.keys(articles)).not.toContain('secret_note');
    expect(Object.keys(document.components.schemas.ItemsAuthors!.properties!)).not.toContain('email');
    // The editor reads, creates, updates and deletes articles (item rules narrow which), but only reads authors.
    expect(Object.keys(document.paths['/items/articles']!).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(document.paths['/items/authors']!)).toEqual(['get']);
    expect(Object.keys(document.paths['/items/authors/{id}']!)).toEqual(['get']);
    // A relation to a collection the role cannot read is only its key.
    expect(JSON.stringify(articles.tags)).not.toContain('ItemsTags');
    expect(JSON.stringify(document)).not.toContain('secret_note');
    // A many-to-any offers only the allowed collections the role may read (block_text, not block_quote).
    expect(document.components.schemas.ItemsArticlesBlocks!.properties!.item).toEqual({ anyOf: [{ anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/ItemsBlockText' }] }, { type: 'null' }] });
  });

  it('gives the public only what the public role may read, and no /users/me', async () => {
    const document = await oas(null);
    await expectValid(document);
    const items = Object.keys(document.paths).filter((route) => route.startsWith('/items/'));
    expect(items.sort()).toEqual(['/items/articles', '/items/articles/{id}']);
    expect(Object.keys(document.paths['/items/articles']!)).toEqual(['get']);
    expect(Object.keys(document.components.schemas.ItemsArticles!.properties!).sort()).toEqual(['id', 'title']);
    expect(document.paths['/users/me']).toBeUndefined();
    expect(document.paths['/users']).toBeUndefined();
    expect(document.paths['/auth/login']).toBeDefined();
  });
});

describe('tessera openapi', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-openapi-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  const env = () => ({ DB_URL: f.t.testDatabase.url, SECRET: 'test-secret-that-is-long-enough-0123456789' });

  it("writes the administrator's view, a role's with --role, the public's with --public", { timeout: 90_000 }, async () => {
    const admin = await runCli(['openapi'], { cwd, env: env() });
    expect(admin.stderr).toBe('');
    expect(admin.code).toBe(0);
    const adminDocument = JSON.parse(admin.stdout) as Document;
    await expectValid(adminDocument);
    expect(adminDocument.paths['/items/vault']).toBeDefined();
    expect(adminDocument.components.schemas.ItemsArticles!.properties!.secret_note).toBeDefined();

    const editor = await runCli(['openapi', '--role', 'Editor'], { cwd, env: env() });
    expect(editor.code).toBe(0);
    const editorDocument = JSON.parse(editor.stdout) as Document;
    await expectValid(editorDocument);
    expect(editorDocument.paths['/items/vault']).toBeUndefined();
    expect(editorDocument.components.schemas.ItemsArticles!.properties!.secret_note).toBeUndefined();
    expect(editorDocument.paths['/items/authors']).toEqual((await oas(f.tokens.editor)).paths['/items/authors']);

    const publicView = await runCli(['openapi', '--public'], { cwd, env: env() });
    expect(publicView.code).toBe(0);
    expect(Object.keys((JSON.parse(publicView.stdout) as Document).components.schemas.ItemsArticles!.properties!).sort()).toEqual(['id', 'title']);

    const unknown = await runCli(['openapi', '--role', 'Nobody'], { cwd, env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No role is named "Nobody"');
  });
});
