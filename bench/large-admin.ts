/**
 * The admin's list of articles in Chromium at each size of bench/large-tables.ts: first page on screen after
 * navigation, then the next page, then the last page (the pagination's last number), each until its rows are
 * on screen. The list asks for the exact count once per filter and continues pages by cursor
 * (admin/src/providers/list-paging.ts); the last page is an `offset` read.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildAdmin, isAdminBuildStale } from '../server/admin-build.ts';

export interface AdminTimings {
  firstPageMs: number;
  nextPageMs: number;
  lastPageMs: number;
  /** The count the list shows ("1,000,000 items"). */
  countText: string;
}

/** A signed-in Chromium page on the bench server. */
export interface AdminBrowser {
  measure(): Promise<AdminTimings>;
  close(): Promise<void>;
}

const firstRowText = (page: Page) => page.getByTestId('list-row').first().innerText();

/** Clicks `target` and waits until the first row shows something else: the new page is on screen. */
async function pageChange(page: Page, click: () => Promise<void>): Promise<number> {
  const before = await firstRowText(page);
  const started = performance.now();
  await click();
  await page.waitForFunction((previous) => {
    const row = document.querySelector('[data-testid="list-row"]');
    return row !== null && (row as HTMLElement).innerText !== previous;
  }, before, { timeout: 120_000 });
  return performance.now() - started;
}

export async function openAdmin(base: string, email: string, password: string): Promise<AdminBrowser> {
  if (isAdminBuildStale()) await buildAdmin();
  const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('user-menu').waitFor({ timeout: 120_000 });
  return {
    async measure() {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto('/admin/content/articles');
      await page.getByTestId('list-row').first().waitFor({ timeout: 120_000 });
      const firstPageMs = performance.now() - started;
      const countText = await page.getByTestId('list-count').innerText();
      const nextPageMs = await pageChange(page, () => page.locator('.ant-pagination-next').click());
      const lastPageMs = await pageChange(page, () => page.locator('.ant-pagination-item').last().click());
      return { firstPageMs, nextPageMs, lastPageMs, countText };
    },
    async close() {
      await context.close();
      await browser.close();
    },
  };
}
