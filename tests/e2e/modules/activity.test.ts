import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
beforeAll(async () => {
  harness = await startAdmin();
});
afterAll(async () => {
  await harness?.close();
});

describe('activity log', () => {
  it('lists an item’s creation, filters by action, and links to the item', async () => {
    const token = await harness.app.login();
    const auth = { Authorization: `Bearer ${token}` };
    await harness.app.request.post('/collections').set(auth).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const item = await harness.app.request.post('/items/articles').set(auth).send({ title: 'First post' }).expect(200);
    await harness.app.request.patch(`/items/articles/${item.body.data.id}`).set(auth).send({ title: 'First post, edited' }).expect(200);

    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-activity').click();
    await page.getByTestId('activity-title').waitFor();
    const link = page.getByTestId(`activity-item-articles-${item.body.data.id}`);
    await expect.poll(() => link.count()).toBe(2);
    await harness.screenshot(page, 'activity');

    await page.getByTestId('activity-action').click();
    await page.getByTitle('Created', { exact: true }).click();
    await expect.poll(() => link.count()).toBe(1);
    expect(await page.locator('.ant-table-row').filter({ hasText: 'Updated' }).count()).toBe(0);

    await link.click();
    await page.waitForURL(new RegExp(`/admin/content/articles/${item.body.data.id}$`));
  });

  it('speaks Brazilian Portuguese to a user whose language is pt-BR', async () => {
    const token = await harness.app.login();
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: 'pt-BR' }).expect(200);
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/activity');
    await page.getByText('Registro de atividade').waitFor();
    await page.getByText('Criou').first().waitFor();
    await page.goto('/admin/roles');
    await page.getByText('Funções e permissões').waitFor();
    await harness.screenshot(page, 'activity-pt-BR-roles');
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: null }).expect(200);
  });
});
