import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
let editorId: string;
const EDITOR = { email: 'inbox-editor@example.com', password: 'inbox-editor-password-1' };

const api = (method: ApiMethod, path: string, body?: object, as = token) => callApi(harness, as, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'articles', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string' }] });
  await api('post', '/items/articles', { title: 'Launch plan' });
  const role = await api('post', '/roles', { name: 'Editors', app_access: true });
  await api('post', '/permissions', { role: role.id, collection: 'articles', action: 'read', fields: '*' });
  editorId = (await api('post', '/users', { ...EDITOR, role: role.id, status: 'active', first_name: 'Eve' })).id;
});
afterAll(async () => {
  await harness?.close();
});

describe('notifications in the admin', () => {
  it('a mention in a comment reaches the other user\'s bell; they open the item, archive it, and find it in the archive', async () => {
    await api('post', '/activity/comment', { collection: 'articles', item: 1, comment: `@${editorId} can you review this?` });
    await api('post', '/notifications', { recipient: editorId, subject: 'Deadline moved', message: 'Friday instead of Thursday.' });

    const page = await harness.newPage();
    await harness.signIn(page, EDITOR.email, EDITOR.password);
    await expect.poll(() => page.getByTestId('notification-count').locator('.ant-badge-count').getAttribute('title'), { timeout: 60_000 }).toBe('2');
    await page.getByTestId('notification-bell').click();
    const mention = page.locator('[data-testid^="notification-open-"]').filter({ hasText: 'mentioned you' });
    await mention.waitFor();
    expect(await page.locator('.ant-drawer').textContent()).toContain('can you review this?');
    await harness.screenshot(page, 'notifications-drawer');
    await mention.click();
    await page.waitForURL(/\/admin\/content\/articles\/1$/);

    // Archive the mention from the bell; one is left.
    const [mentioned] = (await api('get', `/notifications?filter[subject][_contains]=mentioned&fields=id`)) as Array<{ id: number }>;
    await page.getByTestId('notification-bell').click();
    await page.getByTestId(`notification-move-${mentioned!.id}`).click();
    await expect.poll(() => page.getByTestId('notification-count').locator('.ant-badge-count').getAttribute('title'), { timeout: 60_000 }).toBe('1');
    expect((await api('get', `/notifications/${mentioned!.id}?fields=status`)).status).toBe('archived');

    // The inbox page's archive lists it and moves it back.
    await page.goto('/admin/notifications');
    await page.getByTestId('notifications-box').getByText('Archived').click();
    await page.getByTestId(`notification-${mentioned!.id}`).waitFor();
    await page.getByTestId(`notification-move-${mentioned!.id}`).click();
    await expect.poll(async () => (await api('get', `/notifications/${mentioned!.id}?fields=status`)).status, { timeout: 60_000 }).toBe('inbox');
  });
});
