import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { animationsDone } from './interfaces/interface-kit.ts';
import { seedNewsroom } from './seed.ts';

const EDITOR = { email: 'editor@example.com', password: 'editor-password-1' };

let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];
beforeAll(async () => {
  harness = await startAdmin();
  ({ send } = await seedNewsroom(harness.app));
  await send('post', '/items/articles', [{ title: 'Visible story', slug: 'visible', words: 16, author: 1 }]);
  const role = await send('post', '/roles', { name: 'Reader', app_access: true, admin_access: false });
  await send('post', '/users', { ...EDITOR, role: role.id, first_name: 'Rita', status: 'active' });
  await send('post', '/permissions', [{ role: role.id, collection: 'articles', action: 'read', fields: ['id', 'title', 'words'] }]);
});
afterAll(async () => {
  await harness?.close();
});

describe('languages', () => {
  it('switches the interface to pt-BR from the user menu, keeps it on the user, and writes numbers in Portuguese words', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Language' }).click();
    // The submenu slides in: a click while it moves can miss the language.
    const portuguese = page.getByRole('menuitem', { name: 'Português (Brasil)' });
    await portuguese.waitFor();
    await animationsDone(page);
    await portuguese.click();
    await page.getByText('Conteúdo').waitFor();
    await page.getByTestId('nav-articles').click();
    await page.getByRole('button', { name: 'Criar' }).waitFor();
    await page.getByRole('cell', { name: 'dezesseis' }).waitFor();
    // antd's own texts follow (the page-size select of the table).
    await page.getByText('25 / página').waitFor();
    await harness.screenshot(page, 'content-list-pt-BR');
    const me = await send('get', '/users/me?fields=language');
    expect(me.language).toBe('pt-BR');

    // A strings override from the translations collection wins over the built-in text.
    await send('post', '/translations', { key: 'buttons.create', language: 'pt-BR', value: 'Novo artigo' });
    await page.reload();
    await page.getByRole('button', { name: 'Novo artigo' }).waitFor();
    await send('patch', '/users/me', { language: 'en-US' });
  });
});

describe('a restricted user', () => {
  it('sees only the collections and fields their role may read, and no write buttons', async () => {
    const page = await harness.newPage();
    await harness.signIn(page, EDITOR.email, EDITOR.password);
    await page.getByTestId('nav-articles').waitFor();
    expect(await page.getByTestId('nav-authors').count()).toBe(0);
    await page.getByTestId('nav-articles').click();
    await page.getByRole('cell', { name: 'Visible story' }).waitFor();
    const headers = await page.locator('thead th').allTextContents();
    expect(headers.filter(Boolean)).toEqual(['Title', 'Words']);
    expect(await page.getByTestId('create-item').count()).toBe(0);
    await harness.screenshot(page, 'content-list-restricted');

    await page.getByRole('cell', { name: 'Visible story' }).click();
    await page.getByTestId('item-title').filter({ hasText: 'Visible story' }).waitFor();
    expect(await page.getByTestId('save-item').count()).toBe(0);
    expect(await page.getByTestId('field-slug').count()).toBe(0);
    await expect(page.locator('#field-title').isDisabled()).resolves.toBe(true);
    await harness.screenshot(page, 'content-item-restricted');
  });
});
