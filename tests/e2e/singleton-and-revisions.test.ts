import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { seedNewsroom } from './seed.ts';

let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];
beforeAll(async () => {
  harness = await startAdmin();
  ({ send } = await seedNewsroom(harness.app));
  await send('post', '/collections', {
    collection: 'home_page',
    meta: { singleton: true, icon: 'public' },
    fields: [
      { field: 'headline', type: 'string' },
      { field: 'show_banner', type: 'boolean', meta: { interface: 'boolean' } },
      { field: 'banner_text', type: 'string', meta: { hidden: true, conditions: [{ name: 'with banner', rule: { show_banner: { _eq: true } }, hidden: false }] } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('singletons, conditions and revisions', () => {
  it('opens a singleton straight to its form; a condition shows a field when another is switched on', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-home_page').click();
    await page.getByTestId('item-title').filter({ hasText: 'Home Page' }).waitFor();
    expect(await page.locator('#field-banner_text').count()).toBe(0);
    await page.locator('#field-show_banner').click();
    await page.locator('#field-banner_text').fill('Big news');
    await page.locator('#field-headline').fill('Welcome');
    await page.getByTestId('save-item').click();
    await expect.poll(async () => send('get', '/items/home_page')).toMatchObject({ headline: 'Welcome', show_banner: true, banner_text: 'Big news' });
    await harness.screenshot(page, 'content-singleton');
  });

  it('lists the revisions of an item and restores an earlier one', async () => {
    const article = await send('post', '/items/articles', { title: 'First title' });
    await send('patch', `/items/articles/${article.id}`, { title: 'Second title' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/articles/${article.id}`);
    await page.getByTestId('item-title').filter({ hasText: 'Second title' }).waitFor();
    await page.getByTestId('open-revisions').click();
    const revisions = await send('get', `/revisions?filter[item][_eq]=${article.id}&filter[collection][_eq]=articles&sort=id&fields=id`);
    await page.getByTestId(`restore-${revisions[0].id}`).click();
    await harness.screenshot(page, 'content-revisions');
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('item-title').filter({ hasText: 'First title' }).waitFor();
    expect((await send('get', `/items/articles/${article.id}?fields=title`)).title).toBe('First title');
  });

  it('switches to the dark appearance from the user menu and keeps it on the user', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Appearance' }).click();
    await page.getByRole('menuitem', { name: 'Dark' }).click();
    await expect.poll(() => page.evaluate('document.documentElement.style.colorScheme')).toBe('dark');
    await page.getByTestId('nav-articles').click();
    await page.getByTestId('collection-title').waitFor();
    await harness.screenshot(page, 'content-list-dark');
    expect((await send('get', '/users/me?fields=appearance')).appearance).toBe('dark');
    await send('patch', '/users/me', { appearance: null });
  });
});
