import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { englishLeaks } from './english-leaks.ts';
import { animationsDone } from './interfaces/interface-kit.ts';

// The admin as a newcomer met it (issue item 8): a pt-BR app with English left in it and dates in the
// browser's format, field order that differed between screens, markdown as a bare text area, a phone
// where the menu and the Save button did not fit.

/** Screenshots are also copied here, to be looked at. */
const SHOTS = '/tmp/admin-newcomer';

let harness: AdminHarness;
let send: (method: 'post' | 'patch' | 'get', path: string, body?: unknown) => Promise<any>;
let adminRole: string;
let adminId: string;

async function shot(page: Page, name: string): Promise<void> {
  const file = await harness.screenshot(page, name);
  if (!file) return;
  mkdirSync(SHOTS, { recursive: true });
  copyFileSync(file, path.join(SHOTS, `${name}.png`));
}

/** The data-testid of every element matching `selector`, without `prefix`, in document order. */
async function testIds(page: Page, selector: string, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (const element of await page.locator(selector).all()) ids.push(((await element.getAttribute('data-testid')) ?? '').slice(prefix.length));
  return ids;
}

/** Waits until the page stopped loading: no request in flight, no spinner. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 60_000 }).catch(() => undefined);
}

/**
 * Opens the filter pop-up and adds a rule. A click while antd still places the pop-up (it measures itself
 * after opening, then shifts to fit the screen) can land beside it, which closes it: then it is opened again.
 */
async function addFilterRule(page: Page): Promise<void> {
  const builder = page.getByTestId('filter-builder');
  const rule = builder.locator('[data-testid="filter-rule-0"]');
  for (let tries = 1; ; tries++) {
    if (!(await builder.isVisible())) await page.getByTestId('open-filter').click();
    await builder.waitFor();
    await animationsDone(page);
    await page.getByTestId('filter-add').click();
    const outcome = await Promise.race([
      rule.waitFor().then(() => 'added'),
      builder.waitFor({ state: 'hidden' }).then(() => 'closed'),
    ]).catch((error: unknown) => error);
    if (outcome === 'added') return;
    if (outcome !== 'closed' || tries === 5) throw new Error(`no filter rule after ${tries} tries: ${String(outcome)}`);
  }
}

beforeAll(async () => {
  harness = await startAdmin();
  const token = await harness.app.login();
  send = async (method, url, body) => {
    const request = harness.app.request[method](url).set('Authorization', `Bearer ${token}`);
    const response = body === undefined ? await request : await request.send(body as object);
    if (response.status >= 400) throw new Error(`${method.toUpperCase()} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body?.data;
  };
  // Fields created in this order and never sorted: the data model, the form and the list agree on it.
  await send('post', '/collections', {
    collection: 'noticias',
    meta: { icon: 'article', display_template: '{{titulo}}', translations: [{ language: 'pt-BR', translation: 'Notícias' }, { language: 'en-US', translation: 'News' }] },
    fields: [
      { field: 'titulo', type: 'string', meta: { translations: [{ language: 'pt-BR', translation: 'Título' }] } },
      { field: 'corpo', type: 'text', meta: { interface: 'input-markdown', translations: [{ language: 'pt-BR', translation: 'Corpo' }] } },
      { field: 'publicado_em', type: 'timestamp', meta: { translations: [{ language: 'pt-BR', translation: 'Publicado em' }] } },
      { field: 'visitas', type: 'integer', meta: { translations: [{ language: 'pt-BR', translation: 'Visitas' }] } },
    ],
  });
  await send('post', '/items/noticias', [
    { titulo: 'Chuva em São Paulo', corpo: 'Muita **chuva** hoje.', publicado_em: '2026-11-23T17:42:48Z', visitas: 1234567 },
    { titulo: 'Feira de livros', corpo: null, publicado_em: '2026-01-02T09:05:00Z', visitas: 42 },
  ]);
  const me = await send('get', '/users/me?fields=id,role');
  adminId = me.id;
  adminRole = me.role;
});
afterAll(async () => {
  await harness?.close();
});

describe('one field order', () => {
  it('shows fields in creation order in the data model and the form, and saves a reorder in one request', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/noticias');
    await page.getByTestId('field-row-visitas').waitFor();
    const rows = () => testIds(page, '[data-testid^="field-row-"]', 'field-row-');
    expect(await rows()).toEqual(['id', 'titulo', 'corpo', 'publicado_em', 'visitas']);

    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/fields/')) patches.push(new URL(request.url()).pathname);
    });
    // Drag "visitas" onto "titulo" (native drag events), then the arrow button for "corpo".
    await page.getByTestId('field-row-visitas').dragTo(page.getByTestId('field-row-titulo'));
    await expect.poll(rows, { timeout: 5000 }).toEqual(['id', 'visitas', 'titulo', 'corpo', 'publicado_em']);
    await settled(page);
    await page.getByTestId('field-up-corpo').click();
    await expect.poll(rows, { timeout: 5000 }).toEqual(['id', 'visitas', 'corpo', 'titulo', 'publicado_em']);
    await settled(page);
    expect(patches).toEqual(['/fields/noticias', '/fields/noticias']);
    await shot(page, 'field-order-data-model');

    await page.reload();
    await page.getByTestId('field-row-visitas').waitFor();
    expect(await rows()).toEqual(['id', 'visitas', 'corpo', 'titulo', 'publicado_em']);

    await page.goto('/admin/content/noticias/1');
    await page.getByTestId('item-title').filter({ hasText: 'Chuva em São Paulo' }).waitFor();
    const formOrder = await testIds(page, 'form [data-testid^="field-"]', 'field-');
    expect(formOrder).toEqual(['visitas', 'corpo', 'titulo', 'publicado_em']);

    await page.evaluate('window.localStorage.clear()');
    await page.goto('/admin/content/noticias');
    await page.getByRole('cell', { name: 'Chuva em São Paulo' }).waitFor();
    const headers = (await page.locator('thead th').allTextContents()).filter(Boolean);
    expect(headers).toEqual(['Visitas', 'Titulo', 'Publicado Em']);
  });
});

describe('markdown', () => {
  it('edits with a toolbar, previews the rendered text without running its HTML, and saves the source', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/noticias/+');
    const source = page.locator('#field-corpo');
    await source.fill('mundo');
    await source.selectText();
    await page.getByTestId('markdown-tool-bold').click();
    await expect.poll(() => source.inputValue()).toBe('**mundo**');
    await source.press('End');
    await source.press('Enter');
    await source.press('Enter');
    await source.pressSequentially('item');
    await page.getByTestId('markdown-tool-bulletList').click();
    await expect.poll(() => source.inputValue()).toBe('**mundo**\n\n- item');
    await source.press('End');
    await source.pressSequentially('\n\n<img src="data:," onerror="window.__xss = 1"><script>window.__xss = 2</script>\n\n# Manchete');

    await page.getByTestId('markdown-show-preview').click();
    const preview = page.getByTestId('markdown-preview');
    await preview.locator('strong', { hasText: 'mundo' }).waitFor();
    await preview.locator('li', { hasText: 'item' }).waitFor();
    await preview.locator('h1', { hasText: 'Manchete' }).waitFor();
    expect(await preview.locator('script').count()).toBe(0);
    expect(await preview.locator('img').getAttribute('onerror')).toBeNull();
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    await shot(page, 'markdown-preview');

    await page.locator('#field-titulo').fill('Com markdown');
    await page.getByTestId('save-item').click();
    await page.getByTestId('item-title').filter({ hasText: 'Com markdown' }).waitFor();
    const [saved] = await send('get', '/items/noticias?filter[titulo][_eq]=Com%20markdown&fields=corpo');
    expect(saved.corpo).toBe('**mundo**\n\n- item\n\n<img src="data:," onerror="window.__xss = 1"><script>window.__xss = 2</script>\n\n# Manchete');
  });
});

describe('pt-BR', () => {
  it('opens the first collection after sign-in, and shows no English text and no browser-formatted dates on the screens it visits', async () => {
    // No last page yet (the earlier tests of this file visited items; sign-in would reopen the last one).
    await send('patch', '/users/me', { language: 'pt-BR', last_page: null });
    const page = await harness.newPage();
    await harness.signIn(page);
    // The start page: the first collection of the menu, not an empty page.
    await page.waitForURL(/\/admin\/content\/noticias$/);
    await page.getByRole('cell', { name: 'Chuva em São Paulo' }).waitFor();

    const screens: Array<[string, string]> = [
      ['list', '/admin/content/noticias'],
      ['item', '/admin/content/noticias/1'],
      ['create', '/admin/content/noticias/+'],
      ['data-model', '/admin/data-model'],
      ['data-model-collection', '/admin/data-model/noticias'],
      ['users', '/admin/users'],
      ['user', `/admin/users/${adminId}`],
      ['roles', '/admin/roles'],
      ['role', `/admin/roles/${adminRole}`],
      ['activity', '/admin/activity'],
      ['settings', '/admin/settings'],
      ['files', '/admin/files'],
    ];
    const leaks: Record<string, string[]> = {};
    const texts: Record<string, string> = {};
    for (const [name, url] of screens) {
      await page.goto(url);
      await page.getByText('Conteúdo').first().waitFor();
      await settled(page);
      const found = await englishLeaks(page);
      if (found.length > 0) leaks[name] = found;
      texts[name] = (await page.evaluate('document.body.innerText')) as string;
      await shot(page, `pt-BR-${name}`);
    }
    // Pop-ups and drawers too: the filter builder with a rule, the columns chooser, the field drawer.
    await page.goto('/admin/content/noticias');
    await page.getByRole('cell', { name: 'Chuva em São Paulo' }).waitFor();
    await addFilterRule(page);
    expect(await page.getByTestId('filter-add').textContent()).toContain('Adicionar condição');
    const filterLeaks = await englishLeaks(page);
    if (filterLeaks.length > 0) leaks['filter-builder'] = filterLeaks;
    await shot(page, 'pt-BR-filter-builder');
    // Escape closes the open select first (when it has the focus), then the pop-up.
    const filterPopover = page.locator('.ant-popover').filter({ has: page.getByTestId('filter-builder') });
    for (let presses = 0; presses < 3 && (await filterPopover.isVisible()); presses++) await page.keyboard.press('Escape');
    await filterPopover.waitFor({ state: 'hidden' });
    await page.getByTestId('columns-chooser').click();
    await page.getByRole('checkbox', { name: 'Corpo' }).waitFor();
    const columnLeaks = await englishLeaks(page);
    if (columnLeaks.length > 0) leaks['columns-chooser'] = columnLeaks;
    await page.goto('/admin/data-model/noticias');
    await page.getByTestId('field-edit-corpo').click();
    await page.locator('.ant-drawer-open').waitFor();
    await settled(page);
    const drawerLeaks = await englishLeaks(page);
    if (drawerLeaks.length > 0) leaks['field-drawer'] = drawerLeaks;
    await shot(page, 'pt-BR-field-drawer');
    expect(leaks).toEqual({});

    // Dates and numbers in the app's language (the browser here is en-US).
    const today = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' }).format(new Date());
    const published = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(new Date('2026-11-23T17:42:48Z'));
    expect(texts.list).toContain(published);
    expect(texts.list).toContain('1.234.567');
    expect(texts.activity).toContain(today);
    expect(texts.users).toContain(today);
    for (const [name, text] of Object.entries(texts)) expect([name, text.match(/\d{1,2}:\d{2}(:\d{2})?\s?[AP]M/)]).toEqual([name, null]);
    // System names in the app's language.
    expect(texts.activity).toContain('Usuários');
    expect(texts.roles).toContain('Administrador');
    expect(texts.roles).toContain('Acesso total a todas as coleções e configurações.');
    expect(texts['data-model-collection']).toContain('Transparente');
    await send('patch', '/users/me', { language: null });
  });
});

describe('phone and tablet', () => {
  for (const [width, height] of [[390, 844], [768, 1024]] as const) {
    it(`fits ${width} px: menu in a drawer, lists and forms without sideways scrolling, Save in view`, async () => {
      const page = await harness.newPage();
      await page.setViewportSize({ width, height });
      // Sign-in reopens the last page visited (users.last_page), which earlier tests of this file moved.
      await send('patch', '/users/me', { last_page: null });
      await harness.signIn(page);
      await page.getByRole('cell', { name: 'Chuva em São Paulo' }).waitFor();
      const overflow = () => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

      expect(await page.locator('.ant-layout-sider').count()).toBe(0);
      expect(await overflow()).toBe(0);
      await settled(page);
      await shot(page, `${width}-list`);
      await addFilterRule(page);
      // The pop-up is measured and placed after it opens (antd adjusts it to the viewport): judge the settled layout.
      await expect.poll(overflow, { timeout: 5_000 }).toBe(0);
      const filterBox = await page.getByTestId('filter-builder').boundingBox();
      expect(filterBox!.x).toBeGreaterThanOrEqual(0);
      expect(filterBox!.x + filterBox!.width).toBeLessThanOrEqual(width);
      await shot(page, `${width}-filter`);
      await page.keyboard.press('Escape');

      await page.getByTestId('menu-toggle').click();
      await page.getByTestId('nav-module-users').waitFor();
      await shot(page, `${width}-menu`);
      await page.getByTestId('nav-module-users').click();
      await page.getByTestId('nav-module-users').waitFor({ state: 'hidden' });
      await settled(page);
      expect(await overflow()).toBe(0);
      // The name column keeps names on one line (it once squeezed them to a letter a line).
      const name = await page.locator('tbody').getByText('Admin User', { exact: true }).boundingBox();
      expect(name!.height).toBeLessThan(30);
      await shot(page, `${width}-users`);

      await page.getByTestId('menu-toggle').click();
      await page.getByTestId('nav-noticias').click();
      await page.getByRole('cell', { name: 'Chuva em São Paulo' }).click();
      await page.getByTestId('item-title').filter({ hasText: 'Chuva em São Paulo' }).waitFor();
      await settled(page);
      const save = await page.getByTestId('save-item').boundingBox();
      expect(save).not.toBeNull();
      expect(save!.x).toBeGreaterThanOrEqual(0);
      expect(save!.x + save!.width).toBeLessThanOrEqual(width);
      expect(await overflow()).toBe(0);
      await shot(page, `${width}-item`);

      await page.goto('/admin/data-model/noticias');
      await page.getByTestId('field-row-titulo').waitFor();
      await settled(page);
      expect(await overflow()).toBe(0);
      await shot(page, `${width}-data-model`);
    });
  }
});
