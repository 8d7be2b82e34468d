import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import { startSignedInAdmin, type Send } from '../interfaces/interface-kit.ts';
import type { AdminHarness } from '../harness.ts';

// Shares in the studio: the item form's Share button (create with a password, an end date and a most-uses
// limit; copy the link; send it by e-mail; revoke) and the public share page opened signed out, where the
// password and the uses limit are enforced. en-US and pt-BR, desktop and 390 px. Seeded data is Portuguese.

let harness: AdminHarness;
let send: Send;
let viewerRole: string;
let articleId: number;

const shareRow = async (id: string) => (await send('get', `/shares?fields=id,name,role,password,max_uses,times_used,date_end&filter=${encodeURIComponent(JSON.stringify({ id: { _eq: id } }))}`))[0];

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'noticias',
    meta: { icon: 'article', display_template: '{{titulo}}', translations: [{ language: 'pt-BR', translation: 'Notícias' }, { language: 'en-US', translation: 'News' }] },
    fields: [
      { field: 'titulo', type: 'string', meta: { translations: [{ language: 'pt-BR', translation: 'Título' }, { language: 'en-US', translation: 'Headline' }] } },
      { field: 'situacao', type: 'string', meta: { interface: 'select-dropdown', options: { choices: [{ text: 'Rascunho', value: 'rascunho' }, { text: 'Publicada', value: 'publicada' }] }, translations: [{ language: 'pt-BR', translation: 'Situação' }, { language: 'en-US', translation: 'State' }] } },
      { field: 'nota_interna', type: 'string' },
    ],
  });
  // Relations the public page shows by their templates: an author (m2o) and tags (m2m).
  await send('post', '/collections', { collection: 'autores', meta: { display_template: '{{nome}}' }, fields: [{ field: 'nome', type: 'string' }, { field: 'email', type: 'string' }] });
  await send('post', '/fields/noticias', { field: 'autor', type: 'integer', meta: { translations: [{ language: 'pt-BR', translation: 'Autoria' }, { language: 'en-US', translation: 'Author' }] } });
  await send('post', '/relations', { collection: 'noticias', field: 'autor', related_collection: 'autores' });
  await send('post', '/collections', { collection: 'marcadores', meta: { display_template: '#{{rotulo}}' }, fields: [{ field: 'rotulo', type: 'string' }] });
  await send('post', '/collections', { collection: 'noticias_marcadores', meta: { hidden: true }, fields: [{ field: 'noticias_id', type: 'integer' }, { field: 'marcadores_id', type: 'integer' }] });
  await send('post', '/relations', { collection: 'noticias_marcadores', field: 'noticias_id', related_collection: 'noticias', meta: { one_field: 'marcadores', junction_field: 'marcadores_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'noticias_marcadores', field: 'marcadores_id', related_collection: 'marcadores', meta: { junction_field: 'noticias_id' }, schema: { on_delete: 'CASCADE' } });
  const autora = await send('post', '/items/autores', { nome: 'Maria Souza', email: 'maria@example.com' });
  const [porto, festa] = await send('post', '/items/marcadores', [{ rotulo: 'porto' }, { rotulo: 'festa' }]);
  articleId = (await send('post', '/items/noticias', { titulo: 'Festa no porto', situacao: 'publicada', nota_interna: 'não publicar', autor: autora.id, marcadores: [{ marcadores_id: porto.id }, { marcadores_id: festa.id }] })).id;
  // The role a share reads as: the headline, state, author and tags, not the internal note nor the author's e-mail.
  viewerRole = (await send('post', '/roles', { name: 'Leitores', app_access: false })).id;
  await send('post', '/permissions', { role: viewerRole, collection: 'noticias', action: 'read', fields: ['id', 'titulo', 'situacao', 'autor', 'marcadores'] });
  await send('post', '/permissions', { role: viewerRole, collection: 'autores', action: 'read', fields: ['id', 'nome'] });
  await send('post', '/permissions', { role: viewerRole, collection: 'marcadores', action: 'read', fields: '*' });
  await send('post', '/permissions', { role: viewerRole, collection: 'noticias_marcadores', action: 'read', fields: '*' });
});
afterAll(async () => {
  await harness?.close();
});

async function openDrawer(page: Page) {
  await page.goto(`/admin/content/noticias/${articleId}`);
  await page.getByTestId('share-button').click();
  await page.getByTestId('shares-drawer').waitFor();
}

/** A browser context that never signed in, on the share's page. */
async function signedOut(link: string): Promise<Page> {
  const page = await harness.newPage();
  await page.goto(link);
  return page;
}

describe('shares', () => {
  let shareId: string;

  it('creates a share with a password, an end date and two uses; copies its link; sends it by e-mail', async () => {
    const page = await harness.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseUrl });
    await harness.signIn(page);
    await openDrawer(page);
    await page.getByText('No shares yet').waitFor();
    await page.getByTestId('share-name').fill('Para a editora');
    await page.getByTestId('share-role').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Leitores', { exact: true }).click();
    await page.getByTestId('share-password').fill('senha-do-link');
    const end = new Date(Date.now() + 30 * 24 * 3600_000);
    const endText = `${end.getFullYear()}-${String(end.getMonth() + 1).padStart(2, '0')}-${String(end.getDate()).padStart(2, '0')} 18:00:00`;
    await page.getByTestId('share-date-end').click();
    await page.getByTestId('share-date-end').fill(endText);
    // Enter confirms the typed date without submitting the form.
    await page.getByTestId('share-date-end').press('Enter');
    expect(await page.getByTestId('share-row-Para a editora').count()).toBe(0);
    await page.getByTestId('share-max-uses').fill('2');
    const created = page.waitForResponse((response) => new URL(response.url()).pathname === '/shares' && response.request().method() === 'POST');
    await page.getByTestId('share-create').click();
    expect((await created).status()).toBe(200);
    const row = page.getByTestId('share-row-Para a editora');
    await row.getByTestId('share-uses').filter({ hasText: 'Uses: 0 of 2' }).waitFor();
    const [stored] = await send('get', '/shares?fields=id,name,role,password,max_uses,times_used,date_end');
    shareId = stored.id;
    expect(stored).toMatchObject({ name: 'Para a editora', role: viewerRole, password: '**********', max_uses: 2, times_used: 0 });
    expect(new Date(stored.date_end).getDate()).toBe(end.getDate());
    const link = `${harness.baseUrl}/admin/shared/${shareId}`;
    await row.getByTestId('share-link').filter({ hasText: link }).waitFor();

    await row.getByTestId('share-copy').click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()'), { timeout: 60_000 }).toBe(link);

    await row.getByTestId('share-invite').click();
    const emails = page.getByTestId('share-invite-emails').locator('input');
    await emails.fill('leitora@example.com');
    await emails.press('Enter');
    const invited = page.waitForResponse((response) => new URL(response.url()).pathname === '/shares/invite');
    await page.locator('.ant-modal').getByRole('button', { name: 'Send' }).click();
    const invite = await invited;
    expect(invite.status()).toBe(204);
    expect(JSON.parse(invite.request().postData() ?? '{}')).toEqual({ share: shareId, emails: ['leitora@example.com'] });
    const outbox = path.join(harness.dataDir, 'outbox');
    const mails = await Promise.all((await readdir(outbox)).map((name) => readFile(path.join(outbox, name), 'utf8')));
    expect(mails.some((mail) => mail.includes('To: leitora@example.com') && mail.includes(`/admin/shared/${shareId}`))).toBe(true);
    // The outbox transport mailed nothing: the drawer says where the e-mail went, not "sent".
    await page.getByTestId('share-outbox-notice').filter({ hasText: 'DATA_DIR/outbox' }).waitFor();
    expect(await page.locator('.ant-modal-confirm-title').textContent()).toBe('E-mails written to the outbox, not sent: 1');
    expect(await page.getByText('E-mails sent', { exact: false }).count()).toBe(0);
    await harness.screenshot(page, 'share-invite-outbox');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await harness.screenshot(page, 'share-drawer');
  }, 300_000);

  it('opens the share signed out: the password is asked, the item shown read-only, the uses limit enforced', async () => {
    const link = `/admin/shared/${shareId}`;
    const first = await signedOut(link);
    await first.getByTestId('shared-password').waitFor();
    await harness.screenshot(first, 'share-password');
    await first.getByTestId('shared-password').fill('not-the-password');
    await first.getByTestId('shared-enter').click();
    await first.getByTestId('shared-password-error').filter({ hasText: 'That password is not right.' }).waitFor();
    expect((await shareRow(shareId)).times_used).toBe(0);
    await first.getByTestId('shared-password').fill('senha-do-link');
    await first.getByTestId('shared-enter').click();
    await first.getByTestId('shared-title').filter({ hasText: 'Festa no porto' }).waitFor();
    await first.getByTestId('shared-field-situacao').filter({ hasText: 'Publicada' }).waitFor();
    expect(await first.getByTestId('shared-field-nota_interna').count()).toBe(0);
    expect(await first.getByText('não publicar').count()).toBe(0);
    // Relations by their collections' templates, as the share's role may read them (not raw keys).
    expect(await first.getByTestId('shared-field-autor').textContent()).toBe('Maria Souza');
    expect(await first.getByTestId('shared-field-marcadores').locator('.ant-tag').allTextContents()).toEqual(['#porto', '#festa']);
    expect(await first.getByText('maria@example.com').count()).toBe(0);
    await harness.screenshot(first, 'share-page');
    expect((await shareRow(shareId)).times_used).toBe(1);
    // A reload in the same tab keeps its session: no second use.
    await first.reload();
    await first.getByTestId('shared-title').filter({ hasText: 'Festa no porto' }).waitFor();
    expect((await shareRow(shareId)).times_used).toBe(1);

    const second = await signedOut(link);
    await second.getByTestId('shared-password').fill('senha-do-link');
    await second.getByTestId('shared-enter').click();
    await second.getByTestId('shared-title').filter({ hasText: 'Festa no porto' }).waitFor();
    expect((await shareRow(shareId)).times_used).toBe(2);
    // Used up: a third visitor cannot open it.
    const third = await signedOut(link);
    await third.getByTestId('shared-unavailable').waitFor();
    expect(await third.getByTestId('shared-title').count()).toBe(0);
    await harness.screenshot(third, 'share-used-up');
  }, 300_000);

  it('revokes a share from the drawer: its link stops working', async () => {
    const share = await send('post', '/shares', { name: 'Temporário', collection: 'noticias', item: String(articleId), role: viewerRole });
    const visitor = await signedOut(`/admin/shared/${share.id}`);
    await visitor.getByTestId('shared-title').filter({ hasText: 'Festa no porto' }).waitFor();
    const page = await harness.newPage();
    await harness.signIn(page);
    await openDrawer(page);
    const row = page.getByTestId('share-row-Temporário');
    await row.getByTestId('share-revoke').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('share-row-Para a editora').waitFor();
    const later = await signedOut(`/admin/shared/${share.id}`);
    await later.getByTestId('shared-unavailable').waitFor();
  }, 300_000);

  it('speaks Portuguese and fits 390 px: the drawer, the password page and the shared item', async () => {
    const open = await send('post', '/shares', { name: 'Aberto', collection: 'noticias', item: String(articleId), role: viewerRole });
    const locked = await send('post', '/shares', { name: 'Fechado', collection: 'noticias', item: String(articleId), role: viewerRole, password: 'outra-senha' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await send('patch', '/settings', { default_language: 'pt-BR' });
    await send('patch', '/users/me', { language: 'pt-BR' });
    for (const width of [1360, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
      await openDrawer(page);
      await page.getByTestId('share-row-Aberto').getByTestId('share-uses').filter({ hasText: /^Usos: \d+, sem limite$/ }).waitFor();
      await expectNoEnglish(page);
      await harness.screenshot(page, `share-drawer-pt-BR-${width}`);
      // Sending by e-mail with the outbox transport, in Portuguese: where the e-mail went.
      await page.getByTestId('share-row-Aberto').getByTestId('share-invite').click();
      await page.getByTestId('share-invite-emails').locator('input').fill('leitor@example.com');
      await page.getByTestId('share-invite-emails').locator('input').press('Enter');
      await page.locator('.ant-modal').getByRole('button', { name: 'Enviar' }).click();
      await page.getByTestId('share-outbox-notice').filter({ hasText: 'DATA_DIR/outbox' }).waitFor();
      expect(await page.locator('.ant-modal-confirm-title').textContent()).toBe('E-mails gravados na pasta de saída, não enviados: 1');
      await expectNoEnglish(page);
      await harness.screenshot(page, `share-invite-outbox-pt-BR-${width}`);
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
      await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });

      const visitor = await signedOut(`/admin/shared/${locked.id}`);
      await visitor.setViewportSize({ width, height: width === 390 ? 844 : 860 });
      await visitor.getByText('Este link tem senha').waitFor();
      await expectNoEnglish(visitor);
      await harness.screenshot(visitor, `share-password-pt-BR-${width}`);
      await visitor.goto(`/admin/shared/${open.id}`);
      await visitor.getByTestId('shared-field-situacao').filter({ hasText: 'Publicada' }).waitFor();
      await visitor.getByTestId('shared-field-autor').filter({ hasText: 'Maria Souza' }).waitFor();
      await visitor.getByText('Autoria').waitFor();
      await visitor.getByText('Título').waitFor();
      await expectNoEnglish(visitor);
      expect(await visitor.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await harness.screenshot(visitor, `share-page-pt-BR-${width}`);
    }
    await send('patch', '/users/me', { language: null });
    await send('patch', '/settings', { default_language: 'en-US' });
    // en-US at 390 px: the shared item with the English field names.
    const phone = await signedOut(`/admin/shared/${open.id}`);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.getByText('Headline').waitFor();
    await harness.screenshot(phone, 'share-page-en-US-390');
  }, 300_000);
});
