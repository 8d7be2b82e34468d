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

  it('names version saves and flow runs in both languages, and shows mentions as names in the log and the notifications', async () => {
    const token = await harness.app.login();
    const auth = { Authorization: `Bearer ${token}` };
    const api = async (method: 'get' | 'post' | 'patch', path: string, body?: object) => (await harness.app.request[method](path).set(auth).send(body).expect((response) => { if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`); })).body?.data;
    await api('post', '/collections', { collection: 'notes', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] });
    const note = await api('post', '/items/notes', { title: 'Plan' });
    const version = await api('post', '/versions', { collection: 'notes', item: String(note.id), key: 'draft', name: 'Draft' });
    await api('post', `/versions/${version.id}/save`, { title: 'Plan B' });
    const flow = await api('post', '/flows', { name: 'Ping', trigger: 'webhook', status: 'active', accountability: 'all', options: { method: 'GET' } });
    await harness.app.request.get(`/flows/trigger/${flow.id}`).set(auth).expect(200);
    const me = await api('get', '/users/me?fields=id,first_name,last_name');
    const bia = await api('post', '/users', { email: 'bia@example.com', password: 'bia-password-1', first_name: 'Bia', last_name: 'Lima', role: (await api('get', '/users/me?fields=role')).role, status: 'active' });
    const biaToken = await harness.app.login('bia@example.com', 'bia-password-1');
    await harness.app.request.post('/activity/comment').set('Authorization', `Bearer ${biaToken}`).send({ collection: 'notes', item: String(note.id), comment: `Look, @${me.id}` }).expect(200);
    // A notification written before names were stored keeps the id: the list still shows the name.
    await api('post', '/notifications', { recipient: me.id, subject: 'Old mention', message: `Ask @${bia.id}`, collection: 'notes', item: String(note.id) });
    const myName = [me.first_name, me.last_name].filter(Boolean).join(' ');

    for (const [language, texts] of [
      ['en-US', { versionSave: 'Saved to a version', run: 'Ran a flow' }],
      ['pt-BR', { versionSave: 'Salvou em uma versão', run: 'Executou um fluxo' }],
    ] as const) {
      await api('patch', '/users/me', { language });
      const page = await harness.newPage();
      if (language === 'pt-BR') await page.setViewportSize({ width: 390, height: 844 });
      await harness.signIn(page);
      await page.goto('/admin/activity');
      await page.locator('.ant-tag').filter({ hasText: texts.versionSave }).first().waitFor({ timeout: 60_000 });
      await page.locator('.ant-tag').filter({ hasText: texts.run }).first().waitFor();
      expect(await page.getByText('version_save', { exact: true }).count()).toBe(0);
      await page.getByTestId('mention').filter({ hasText: `@${myName}` }).first().waitFor({ timeout: 60_000 });
      await harness.screenshot(page, `activity-actions-mentions-${language}`);
      await page.goto('/admin/notifications');
      await page.getByText(`Look, @${myName}`).first().waitFor({ timeout: 60_000 });
      await page.getByTestId('mention').filter({ hasText: '@Bia Lima' }).first().waitFor({ timeout: 60_000 });
      expect(await page.getByText(me.id).count()).toBe(0);
      await harness.screenshot(page, `notifications-mentions-${language}`);
      await page.close();
    }
    await api('patch', '/users/me', { language: null });
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
