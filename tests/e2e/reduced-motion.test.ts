import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness } from './harness.ts';

// The system's "reduce motion" setting (prefers-reduced-motion) turns antd's animations off in the admin;
// without it pop-ups zoom and slide as usual. The other browser tests all ask for reduced motion.

let harness: AdminHarness;

beforeAll(async () => {
  harness = await startAdmin();
  const token = await harness.app.login();
  await callApi(harness, token, 'post', '/collections', { collection: 'notes', fields: [{ field: 'title', type: 'string' }] });
  await callApi(harness, token, 'post', '/items/notes', { title: 'First note' });
});
afterAll(() => harness?.close());

/** Opens the filter pop-up and its field list; answers the CSS animations that started meanwhile, counted from before the first click. */
async function animationsWhileOpening(page: Page): Promise<number> {
  await harness.signIn(page);
  await page.goto('/admin/content/notes');
  await page.getByRole('cell', { name: 'First note' }).waitFor();
  await page.evaluate(() => {
    const counter = window as unknown as { animationsStarted: number };
    counter.animationsStarted = 0;
    document.addEventListener('animationstart', () => counter.animationsStarted++, true);
  });
  await page.getByTestId('open-filter').click();
  await page.getByTestId('filter-add').click();
  await page.getByTestId('filter-field').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor();
  // Two frames after the list shows: an animation started with it has fired its animationstart by then.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { animationsStarted: number }).animationsStarted);
}

describe('reduced motion', () => {
  it('opens pop-ups and lists without animations when the system asks for reduced motion', async () => {
    const page = await harness.newPage({ reducedMotion: 'reduce' });
    expect(await animationsWhileOpening(page)).toBe(0);
    await page.close();
  });

  it('animates them otherwise', async () => {
    const page = await harness.newPage({ reducedMotion: 'no-preference' });
    expect(await animationsWhileOpening(page)).toBeGreaterThan(0);
    await page.close();
  });
});
