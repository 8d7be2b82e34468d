import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness } from '../harness.ts';

// The table layout on a large collection (issue 36 item 4, docs/performance.md "Large tables"): the exact
// count is asked for once per filter, not on every page change, and the next page continues from the last
// page's cursor (`after`) instead of an offset PostgreSQL would have to skip.

let harness: AdminHarness;
let token: string;
const ITEMS = 60;

/** The list reads of /items/notes the page sends, as their query parameters. */
function listReads(page: Page): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.endsWith('/items/notes')) seen.push(url.searchParams);
  });
  return seen;
}

const rowTitles = (page: Page) => page.getByTestId('list-row').locator('td').filter({ hasText: /^Note \d+$/ }).allInnerTexts();
const expectedTitles = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `Note ${String(from + index).padStart(2, '0')}`);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await callApi(harness, token, 'post', '/collections', { collection: 'notes', fields: [{ field: 'title', type: 'string' }] });
  await callApi(harness, token, 'post', '/items/notes', Array.from({ length: ITEMS }, (_, index) => ({ title: `Note ${String(index + 1).padStart(2, '0')}` })));
});
afterAll(() => harness?.close());

describe('the table layout pages a large list by cursor and counts once per filter', () => {
  it('counts on the first page, continues by cursor, and counts again when the search changes', async () => {
    const page = await harness.newPage();
    // The machine these run on is shared and loaded: waits are for conditions, with room.
    page.setDefaultTimeout(60_000);
    await harness.signIn(page);
    const reads = listReads(page);
    await page.goto('/admin/content/notes');
    await expect.poll(() => rowTitles(page), { timeout: 60_000 }).toEqual(expectedTitles(1, 25));
    await expect.poll(() => page.getByTestId('list-count').innerText(), { timeout: 60_000 }).toBe(`${ITEMS} items`);
    const first = reads.at(-1)!;
    expect(first.get('meta')).toBe('next_cursor,filter_count');
    expect(first.get('page')).toBe('1');
    expect(first.has('after')).toBe(false);

    await page.locator('.ant-pagination-next').click();
    await expect.poll(() => rowTitles(page), { timeout: 60_000 }).toEqual(expectedTitles(26, 50));
    const second = reads.at(-1)!;
    expect(second.get('meta')).toBe('next_cursor');
    expect(second.has('page')).toBe(false);
    expect(second.get('after')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    await expect.poll(() => page.getByTestId('list-count').innerText(), { timeout: 60_000 }).toBe(`${ITEMS} items`);

    await page.locator('.ant-pagination-next').click();
    await expect.poll(() => rowTitles(page), { timeout: 60_000 }).toEqual(expectedTitles(51, 60));
    expect(reads.at(-1)!.has('after')).toBe(true);

    // Back to page 1: neither a cursor nor a count is needed.
    await page.locator('.ant-pagination-item').first().click();
    await expect.poll(() => rowTitles(page), { timeout: 60_000 }).toEqual(expectedTitles(1, 25));
    expect(reads.at(-1)!.get('meta')).toBe('next_cursor');

    // A new search is a new set of items: it is counted.
    const before = reads.length;
    await page.getByTestId('search').fill('Note 0');
    await page.getByTestId('search').press('Enter');
    await expect.poll(() => page.getByTestId('list-count').innerText(), { timeout: 60_000 }).toBe('9 items');
    expect(reads.slice(before).some((read) => read.get('search') === 'Note 0' && read.get('meta') === 'next_cursor,filter_count')).toBe(true);
    // The view is saved a moment later: the next test starts once it is, so its reset is not overwritten.
    const searches = async () => ((await callApi(harness, token, 'get', '/presets?fields=search&limit=-1')) as Array<{ search: string | null }>).map((preset) => preset.search);
    await expect.poll(searches, { timeout: 60_000 }).toContain('Note 0');
    await page.close();
  }, 300_000);

  it('counts again after items are deleted from the list', async () => {
    // The first test's search is the saved view; start from the defaults.
    const presets = (await callApi(harness, token, 'get', '/presets?fields=id&limit=-1')) as Array<{ id: number }>;
    if (presets.length > 0) await harness.app.request.delete('/presets').set('Authorization', `Bearer ${token}`).send(presets.map((preset) => preset.id)).expect(204);
    const page = await harness.newPage();
    // The machine these run on is shared and loaded: waits are for conditions, with room.
    page.setDefaultTimeout(60_000);
    await harness.signIn(page);
    const reads = listReads(page);
    await page.goto('/admin/content/notes');
    await expect.poll(() => rowTitles(page), { timeout: 60_000 }).toEqual(expectedTitles(1, 25));
    await expect.poll(() => page.getByTestId('list-count').innerText(), { timeout: 60_000 }).toBe(`${ITEMS} items`);
    await page.getByTestId('list-row').first().focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.getByTestId('bulk-count').filter({ hasText: '2 selected' }).waitFor();
    const before = reads.length;
    await page.getByTestId('bulk-delete').click();
    await page.getByTestId('bulk-delete-confirm').click();
    await expect.poll(() => page.getByTestId('list-count').innerText(), { timeout: 60_000 }).toBe(`${ITEMS - 2} items`);
    expect(reads.slice(before).some((read) => read.get('meta')?.includes('filter_count'))).toBe(true);
  }, 300_000);
});
