import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
const people = { ann: { email: 'ann@example.com', password: 'ann-collab-password-1' }, ben: { email: 'ben@example.com', password: 'ben-collab-password-1' } };

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);
const WAIT = { timeout: 60_000 };

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'articles', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string' }, { field: 'body', type: 'string' }] });
  await api('post', '/items/articles', { title: 'Launch plan', body: 'Draft' });
  const role = await api('post', '/roles', { name: 'Editors', app_access: true });
  for (const action of ['read', 'update']) await api('post', '/permissions', { role: role.id, collection: 'articles', action, fields: '*' });
  for (const [name, first] of [['ann', 'Ann'], ['ben', 'Ben']] as const) {
    await api('post', '/users', { ...people[name], role: role.id, status: 'active', first_name: first, last_name: 'Doe' });
  }
});
afterAll(async () => {
  await harness?.close();
});

async function openItem(name: 'ann' | 'ben'): Promise<Page> {
  const page = await harness.newPage();
  await harness.signIn(page, people[name].email, people[name].password);
  await page.goto('/admin/content/articles/1');
  await page.locator('#field-title').waitFor();
  return page;
}

describe('collaborative editing of one item in two browsers', () => {
  it('shows presence, locks the focused field, merges saves without losing unsaved edits, and hands over when someone leaves', async () => {
    const ann = await openItem('ann');
    const ben = await openItem('ben');

    // Presence: each sees the other's avatar on the item.
    await ann.getByTestId('presence-avatars').getByLabel('Ben Doe').waitFor(WAIT);
    await ben.getByTestId('presence-avatars').getByLabel('Ann Doe').waitFor(WAIT);

    // Ann edits the title: Ben sees who holds it, and cannot type in it.
    await ann.locator('#field-title').click();
    await ann.locator('#field-title').fill('Launch plan (Ann)');
    await ben.getByTestId('field-lock-title').waitFor(WAIT);
    expect(await ben.getByTestId('field-lock-title').textContent()).toContain('Ann Doe is editing this field');
    expect(await ben.locator('#field-title').isDisabled()).toBe(true);
    await harness.screenshot(ben, 'collab-field-lock');
    // She moves to the page title: the field is free again for Ben.
    await ann.getByTestId('item-title').click();
    await ben.getByTestId('field-lock-title').waitFor({ state: 'detached', ...WAIT });
    expect(await ben.locator('#field-title').isDisabled()).toBe(false);

    // Ben saves the body: Ann's form shows it, and keeps her unsaved title.
    await ben.locator('#field-body').fill('Final copy');
    await ben.getByTestId('save-item').click();
    await expect.poll(() => ann.locator('#field-body').inputValue(), WAIT).toBe('Final copy');
    expect(await ann.locator('#field-title').inputValue()).toBe('Launch plan (Ann)');
    expect(await ann.getByTestId('field-conflict-title').count()).toBe(0);

    // Ben saves another title: Ann keeps hers, and the field says someone saved a different one.
    await ben.locator('#field-title').fill('Launch plan (Ben)');
    await ben.getByTestId('item-title').click();
    await ben.getByTestId('save-item').click();
    await ann.getByTestId('field-conflict-title').waitFor(WAIT);
    expect(await ann.locator('#field-title').inputValue()).toBe('Launch plan (Ann)');
    expect((await api('get', '/items/articles/1')).title).toBe('Launch plan (Ben)');

    // Ben goes back to the list: he left the item (Ann no longer sees him), and his list shows Ann on its row.
    await ben.getByRole('button', { name: 'Back to the list' }).click();
    await ann.getByTestId('presence-avatars').waitFor({ state: 'detached', ...WAIT });
    await ben.getByTestId('row-presence-1').getByLabel('Ann Doe').waitFor(WAIT);

    // He opens it again and takes the body; then his browser goes away: Ann gets the field back.
    await ben.getByTestId('row-presence-1').click();
    await ben.locator('#field-body').waitFor();
    await ben.locator('#field-body').click();
    await ann.getByTestId('field-lock-body').waitFor(WAIT);
    expect(await ann.locator('#field-body').isDisabled()).toBe(true);
    await ben.context().close();
    await ann.getByTestId('field-lock-body').waitFor({ state: 'detached', ...WAIT });
    await ann.getByTestId('presence-avatars').waitFor({ state: 'detached', ...WAIT });
    expect(await ann.locator('#field-body').isDisabled()).toBe(false);
  });
});
