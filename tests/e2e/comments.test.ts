import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
const users: Record<'alice' | 'bob', { id: string; email: string; password: string }> = {} as never;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'articles', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string' }] });
  await api('post', '/items/articles', { title: 'Launch plan' });
  const role = await api('post', '/roles', { name: 'Editors', app_access: true });
  await api('post', '/permissions', { role: role.id, collection: 'articles', action: 'read', fields: '*' });
  for (const [name, first] of [['alice', 'Alice'], ['bob', 'Bob']] as const) {
    const email = `${name}@example.com`;
    const password = `${name}-comments-password-1`;
    users[name] = { id: (await api('post', '/users', { email, password, role: role.id, status: 'active', first_name: first, last_name: 'Doe' })).id, email, password };
  }
});
afterAll(async () => {
  await harness?.close();
});

describe('comments on an item', () => {
  it('one editor mentions another from the picker; the other is notified, reads it on the item, and replies', async () => {
    const alice = await harness.newPage();
    await harness.signIn(alice, users.alice.email, users.alice.password);
    await alice.goto('/admin/content/articles/1');
    await alice.getByTestId('open-comments').click();
    const input = alice.getByTestId('comment-input');
    await input.click();
    await input.pressSequentially('Please check this, @Bo');
    await alice.locator('.ant-mentions-dropdown:not(.ant-mentions-dropdown-hidden)').getByText('Bob Doe').click();
    await input.pressSequentially('thanks.');
    await alice.getByTestId('comment-post').click();
    const posted = alice.locator('[data-testid^="comment-text-"]').first();
    await posted.waitFor();
    expect(await posted.textContent()).toBe('Please check this, @Bob Doe thanks.');
    await harness.screenshot(alice, 'comments-drawer');
    const [stored] = (await api('get', '/activity?filter[action][_eq]=comment&fields=comment')) as Array<{ comment: string }>;
    expect(stored!.comment).toBe(`Please check this, @${users.bob.id} thanks.`);

    const bob = await harness.newPage();
    await harness.signIn(bob, users.bob.email, users.bob.password);
    await expect.poll(() => bob.getByTestId('notification-count').locator('.ant-badge-count').getAttribute('title'), { timeout: 60_000 }).toBe('1');
    await bob.getByTestId('notification-bell').click();
    await bob.locator('[data-testid^="notification-open-"]').first().click();
    await bob.waitForURL(/\/admin\/content\/articles\/1$/);
    await bob.getByTestId('open-comments').click();
    const aliceComment = bob.locator('[data-testid^="comment-text-"]').first();
    await aliceComment.waitFor();
    expect(await aliceComment.textContent()).toContain('@Bob Doe');
    // Not his: no edit or delete.
    expect(await bob.locator('[data-testid^="comment-edit-"]').count()).toBe(0);
    await bob.getByTestId('comment-input').fill('On it.');
    await bob.getByTestId('comment-post').click();
    await expect.poll(() => bob.locator('[data-testid^="comment-text-"]').count(), { timeout: 60_000 }).toBe(2);
    // His own reply: edit, then delete.
    const edit = bob.locator('[data-testid^="comment-edit-"]');
    await edit.click();
    const editor = bob.locator('[data-testid^="comment-editor-"]');
    await editor.fill('On it, done by Friday.');
    await bob.locator('[data-testid^="comment-save-"]').click();
    await expect.poll(() => bob.locator('[data-testid^="comment-text-"]').last().textContent(), { timeout: 60_000 }).toBe('On it, done by Friday.');
    await bob.locator('[data-testid^="comment-delete-"]').click();
    await bob.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => bob.locator('[data-testid^="comment-text-"]').count(), { timeout: 60_000 }).toBe(1);
  });
});
