import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from '../harness.ts';

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

/** Names of the indexes on a table, from pg_indexes. */
async function indexNames(table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(harness.app.system.db);
  return rows.map((row) => row.name);
}

beforeAll(async () => {
  // Every sorted or filtered read is advice-worthy: the panel fills deterministically.
  harness = await startAdmin({ INDEX_ADVICE_THRESHOLD: '0' });
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'books',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string' },
      { field: 'year', type: 'integer' },
    ],
  });
  await sql`insert into books (title, year) select 'Book ' || i, 1900 + i % 120 from generate_series(1, 2000) i`.execute(harness.app.system.db);
});
afterAll(async () => {
  await harness?.close();
});

describe('indexes in the data model', () => {
  it('toggles a field index on and off and sees it in pg_indexes', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/books');
    const toggle = page.getByTestId('field-indexed-title');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    // The primary key has no toggle: it is always indexed.
    expect(await page.getByTestId('field-indexed-id').count()).toBe(0);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => indexNames('books')).toContain('books_title_index');
    expect((await api('get', '/fields/books/title')).schema.is_indexed).toBe(true);
    await harness.screenshot(page, 'data-model-indexed-toggle');

    // The table re-renders after the reload that followed the first toggle (and the screenshot's resize):
    // click once it is settled and enabled, and wait for the request it sends.
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    const patched = page.waitForResponse((response) => response.url().includes('/fields/books/title') && response.request().method() === 'PATCH');
    await toggle.click();
    expect((await patched).status()).toBe(200);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => indexNames('books')).not.toContain('books_title_index');
  });

  it('lists a slow sort with its index and adds it from the panel', async () => {
    await api('get', '/items/books?sort=-year&limit=50');
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/books');
    const panel = page.getByTestId('index-advice');
    const add = panel.getByTestId('index-advice-add-books_year_index');
    await add.waitFor();
    await expect.poll(() => panel.textContent()).toContain('Sort: -year');
    await harness.screenshot(page, 'data-model-index-advice');
    await add.click();
    await expect.poll(() => indexNames('books')).toContain('books_year_index');
    // The advice is gone once served, and the field reads as indexed in the table above.
    await add.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('field-indexed-year').getAttribute('aria-checked')).toBe('true');
  });
});
