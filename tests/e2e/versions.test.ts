import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'articles',
    meta: { versioning: true },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string' },
      { field: 'summary', type: 'string' },
    ],
  });
  await api('post', '/items/articles', { title: 'Spring sale', summary: 'Ten percent off' });
});
afterAll(async () => {
  await harness?.close();
});

describe('content versions in the item page', () => {
  it('creates a version, saves into it without touching main, compares, and promotes the picked fields', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles/1');
    await page.locator('#field-title').waitFor();
    await page.getByTestId('version-switcher').click();
    await page.getByTestId('version-create').click();
    await page.getByTestId('version-key').fill('draft-2');
    await page.getByTestId('version-name').fill('Second draft');
    // The form reads the item again through the new version; typing before that answer would be reset.
    const versionRead = page.waitForResponse((response) => response.url().includes('/items/articles/1') && response.url().includes('version=draft-2'));
    await page.getByTestId('version-create-save').click();
    await versionRead;
    await expect.poll(() => page.getByTestId('save-item').textContent(), { timeout: 60_000 }).toContain('Save to Second draft');

    await page.locator('#field-title').fill('Summer sale');
    await page.locator('#field-summary').fill('Twenty percent off');
    await page.getByTestId('save-item').click();
    // Saved into the version: main is unchanged, the form shows the version.
    await expect.poll(async () => (await api('get', '/versions/?fields=id&filter[key][_eq]=draft-2'))?.length, { timeout: 60_000 }).toBe(1);
    const [version] = (await api('get', '/versions?fields=id&filter[key][_eq]=draft-2')) as Array<{ id: string }>;
    await expect.poll(async () => (await api('get', `/versions/${version!.id}/compare`)).current, { timeout: 60_000 }).toEqual({ title: 'Summer sale', summary: 'Twenty percent off' });
    expect(await api('get', '/items/articles/1?fields=title,summary')).toEqual({ title: 'Spring sale', summary: 'Ten percent off' });
    expect(await page.locator('#field-title').inputValue()).toBe('Summer sale');

    // Compare, keep only the title, promote.
    await page.getByTestId('version-compare').click();
    await page.getByTestId('version-value-title').waitFor();
    expect(await page.getByTestId('version-value-summary').textContent()).toBe('Twenty percent off');
    await harness.screenshot(page, 'versions-compare');
    await page.getByTestId('version-pick-summary').click();
    await page.getByTestId('version-promote').click();
    await expect.poll(() => api('get', '/items/articles/1?fields=title,summary'), { timeout: 60_000 }).toEqual({ title: 'Summer sale', summary: 'Ten percent off' });
    // Back on main after promoting.
    await expect.poll(() => page.getByTestId('save-item').textContent(), { timeout: 60_000 }).toBe('Save');
    await expect.poll(() => page.locator('#field-summary').inputValue(), { timeout: 60_000 }).toBe('Ten percent off');

    // Main changed since the version was made: the compare says so, and promoting needs the explicit choice.
    await api('patch', '/items/articles/1', { summary: 'Fifteen percent off' });
    // "Promoted" shows over the header for 3 s, and a pointer resting on a message keeps it open: let it go first.
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByTestId('version-switcher').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Second draft').click();
    await page.getByTestId('version-compare').click();
    await page.getByTestId('version-outdated').waitFor();
    expect(await page.getByTestId('version-promote').count()).toBe(0);
    await page.getByTestId('version-promote-anyway').click();
    await expect.poll(() => api('get', '/items/articles/1?fields=title,summary'), { timeout: 60_000 }).toEqual({ title: 'Summer sale', summary: 'Twenty percent off' });
  });
});
