import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { expectNoEnglish } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { chooseOption, startSignedInAdmin, type Send } from '../interfaces/interface-kit.ts';

let harness: AdminHarness;
let send: Send;
let adminId: string;
let roleId: string;
let bruno: number;
const VIEWER = { email: 'leitora@example.com', password: 'leitora-senha-segura-1' };
const LONG_WAIT = { timeout: 60_000 };
// Items fall in the month the calendar opens on (the current one).
const today = new Date();
const month = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}`;
const nextMonth = new Date(today.getFullYear(), today.getMonth() + 1, 1);
/** Where the screenshots of this file are also kept for review (SHOTS_DIR overrides). */
const SHOTS = process.env.SHOTS_DIR ?? '/work/notes/shots/layouts';

async function shot(page: Page, name: string): Promise<void> {
  const file = await harness.screenshot(page, `layouts-${name}`);
  if (!file) return;
  try {
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(file, path.join(SHOTS, `${name}.png`));
  } catch {
    // Only the review copy; the screenshot itself is in tests/e2e/screenshots.
  }
}

/** The page scrolls sideways by this many pixels (0 when everything fits the window). */
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

async function atPhoneWidth(page: Page, check: () => Promise<void>): Promise<void> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await check();
  // The narrow layout comes with the render after the resize.
  await expect.poll(() => overflow(page), LONG_WAIT).toBeLessThanOrEqual(0);
  await page.setViewportSize(before);
}

const ownPreset = async () => ((await send('get', `/presets?filter[user][_eq]=${adminId}&filter[collection][_eq]=tarefas&filter[bookmark][_null]=true&fields=layout,layout_query,layout_options`)) as Array<Record<string, any>>)[0] ?? null;
const task = async (title: string) => ((await send('get', `/items/tarefas?filter[titulo][_eq]=${encodeURIComponent(title)}&fields=estado,prazo,ordem,responsavel`)) as Array<Record<string, any>>)[0];
const todoOrder = async () => ((await send('get', '/items/tarefas?filter[estado][_eq]=a_fazer&sort=ordem&fields=titulo')) as Array<{ titulo: string }>).map((row) => row.titulo);

async function openList(page: Page, layout?: string): Promise<void> {
  await page.goto('/admin/content/tarefas');
  await page.getByTestId('layout-switch').waitFor(LONG_WAIT);
  if (layout) await page.getByTestId(`layout-option-${layout}`).click();
}

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  adminId = (await send('get', '/users/me?fields=id')).id;
  await send('post', '/collections', {
    collection: 'tarefas',
    meta: { sort_field: 'ordem' },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'titulo', type: 'string' },
      { field: 'estado', type: 'string', meta: { interface: 'select-dropdown', options: { choices: [{ text: 'A fazer', value: 'a_fazer' }, { text: 'Fazendo', value: 'fazendo' }, { text: 'Feito', value: 'feito' }] } } },
      { field: 'prazo', type: 'date' },
      { field: 'ordem', type: 'integer', meta: { hidden: true } },
    ],
  });
  await send('post', '/collections', { collection: 'pessoas', meta: { display_template: '{{nome}}' }, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'nome', type: 'string' }] });
  const [ana, second] = await send('post', '/items/pessoas', [{ nome: 'Ana' }, { nome: 'Bruno' }]);
  bruno = second.id;
  await send('post', '/fields/tarefas', { field: 'responsavel', type: 'integer', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] } });
  await send('post', '/relations', { collection: 'tarefas', field: 'responsavel', related_collection: 'pessoas' });
  await send('post', '/fields/tarefas', { field: 'capa', type: 'uuid', meta: { interface: 'file-image', special: ['m2o'] } });
  await send('post', '/relations', { collection: 'tarefas', field: 'capa', related_collection: 'tessera_files' });
  const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${(await harness.app.login())}`).attach('file', await pngImage(96, 96, '#2f9e44'), 'capa.png');
  expect(upload.status).toBe(200);
  await send('post', '/items/tarefas', [
    { titulo: 'Alfa', estado: 'a_fazer', prazo: `${month}-10`, ordem: 1, capa: upload.body.data.id, responsavel: ana.id },
    { titulo: 'Beta', estado: 'a_fazer', prazo: `${month}-12`, ordem: 2 },
    { titulo: 'Gama', estado: 'a_fazer', prazo: `${month}-12`, ordem: 3 },
    { titulo: 'Delta', estado: 'fazendo', prazo: `${month}-14`, ordem: 4 },
    { titulo: 'Eta', estado: null, prazo: null, ordem: 5 },
  ]);
  const role = await send('post', '/roles', { name: 'Leitores', app_access: true });
  roleId = role.id;
  await send('post', '/permissions', { role: role.id, collection: 'tarefas', action: 'read', fields: '*' });
  await send('post', '/permissions', { role: role.id, collection: 'pessoas', action: 'read', fields: '*' });
  // Readers may rename a task, not move it: neither its state nor its date.
  await send('post', '/permissions', { role: role.id, collection: 'tarefas', action: 'update', fields: ['titulo'] });
  await send('post', '/users', { ...VIEWER, role: role.id, status: 'active', language: 'pt-BR' });
});
afterAll(async () => {
  await harness?.close();
});

describe('layouts', () => {
  it('cards: image, title and subtitle from templates, sort and page kept in the preset, restored on return and carried by a bookmark', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openList(page, 'cards');
    await expect.poll(() => page.getByTestId('card').count(), LONG_WAIT).toBe(5);

    await page.getByTestId('layout-options').click();
    await chooseOption(page, 'layout-option-field-imageSource', 'Capa');
    await page.getByTestId('layout-option-template-subtitle').fill('{{estado}} · {{prazo}}');
    await page.getByTestId('layout-option-template-subtitle').press('Enter');
    await page.getByTestId('layout-option-choice-size').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Medium', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('card').filter({ hasText: 'Alfa' }).getByTestId('card-subtitle').filter({ hasText: `A fazer · ${month}-10` }).waitFor();
    // A subtitle whose placeholders are all empty shows nothing, not its lone separator.
    const eta = page.getByTestId('card').filter({ has: page.getByTestId('card-title').getByText('Eta', { exact: true }) });
    expect((await eta.getByTestId('card-subtitle').textContent())?.trim()).toBe('');
    await expect.poll(() => page.getByTestId('card').filter({ hasText: 'Alfa' }).locator('img').getAttribute('src')).toMatch(/^\/assets\/[0-9a-f-]+\?width=360&height=360&fit=cover$/);

    await chooseOption(page, 'cards-sort', 'Titulo');
    await page.getByTestId('cards-sort-direction').click();
    await expect.poll(() => page.getByTestId('card-title').first().textContent(), LONG_WAIT).toBe('Gama');
    await expect.poll(ownPreset, LONG_WAIT).toMatchObject({
      layout: 'cards',
      layout_query: { cards: { sort: ['-titulo'], limit: 25 } },
      layout_options: { cards: { imageSource: 'capa', subtitle: '{{estado}} · {{prazo}}', size: 3 } },
    });
    await shot(page, 'cards-en-US-desktop');

    await page.reload();
    await page.getByTestId('cards-layout').waitFor(LONG_WAIT);
    await expect.poll(() => page.getByTestId('card-title').first().textContent(), LONG_WAIT).toBe('Gama');
    // A dropdown's placeholder shows its choice text, not the stored value.
    expect(await page.getByTestId('card-subtitle').first().textContent()).toBe(`A fazer · ${month}-12`);
    await atPhoneWidth(page, () => shot(page, 'cards-en-US-390'));

    // A bookmark carries the layout and its options.
    await page.getByTestId('bookmark-create').click();
    await page.getByTestId('bookmark-name').fill('Cartões');
    await page.getByTestId('bookmark-save').click();
    await page.getByTestId('bookmark-tag').waitFor();
    const [bookmark] = await send('get', '/presets?filter[bookmark][_eq]=Cartões&fields=layout,layout_options');
    expect(bookmark).toMatchObject({ layout: 'cards', layout_options: { cards: { imageSource: 'capa' } } });
    await page.getByTestId('cards-layout').waitFor();
  });

  it('kanban: columns from a dropdown or a many-to-one, drag between columns writes the field, drag within a column sorts; a reader without the permission is told so', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openList(page, 'kanban');
    const titles = () => page.getByTestId('kanban-column-title').allTextContents();
    await expect.poll(titles, LONG_WAIT).toEqual(['A fazer', 'Fazendo', 'Feito', 'No value']);
    const column = (value: string) => page.locator(`[data-testid="kanban-column"][data-value="${value}"]`);
    const card = (title: string) => page.getByTestId('kanban-card').filter({ hasText: title });

    const patched = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/items/tarefas/'));
    await card('Alfa').dragTo(column('feito'));
    expect((await patched).status()).toBe(200);
    await expect.poll(async () => (await task('Alfa'))?.estado, LONG_WAIT).toBe('feito');
    await column('feito').getByText('Alfa').waitFor(LONG_WAIT);

    const sorted = page.waitForResponse((response) => response.url().includes('/utils/sort/tarefas'));
    await card('Gama').dragTo(card('Beta'));
    expect((await sorted).status()).toBe(204);
    await expect.poll(todoOrder, LONG_WAIT).toEqual(['Gama', 'Beta']);
    await expect.poll(() => column('a_fazer').getByTestId('kanban-card-title').allTextContents(), LONG_WAIT).toEqual(['Gama', 'Beta']);
    await shot(page, 'kanban-en-US-desktop');
    await atPhoneWidth(page, () => shot(page, 'kanban-en-US-390'));

    // The administrator makes the board the readers' default.
    await page.getByTestId('default-preset').click();
    await chooseOption(page, 'default-preset-role', 'Leitores');
    await page.getByTestId('default-preset-save').click();
    await expect.poll(async () => (await send('get', `/presets?filter[role][_eq]=${roleId}&filter[user][_null]=true&fields=layout,bookmark`)) as unknown[], LONG_WAIT).toEqual([{ layout: 'kanban', bookmark: null }]);

    // Grouped by a many-to-one: a column per related item, titled by its template; a drag writes the key.
    await page.getByTestId('layout-options').click();
    await chooseOption(page, 'layout-option-field-groupField', 'Responsavel');
    await chooseOption(page, 'layout-option-field-textField', 'Estado');
    await page.keyboard.press('Escape');
    await expect.poll(titles, LONG_WAIT).toEqual(['Ana', 'Bruno', 'No value']);
    // The card's text from a dropdown is its choice text, not the stored value.
    await expect.poll(() => card('Gama').textContent(), LONG_WAIT).toContain('A fazer');
    expect(await card('Gama').textContent()).not.toContain('a_fazer');
    expect(await card('Alfa').textContent()).toContain('Feito');
    await card('Beta').dragTo(column(String(bruno)));
    await expect.poll(async () => (await task('Beta'))?.responsavel, LONG_WAIT).toBe(bruno);
    await column(String(bruno)).getByText('Beta').waitFor(LONG_WAIT);

    const reader = await harness.newPage();
    await harness.signIn(reader, VIEWER.email, VIEWER.password);
    await reader.goto('/admin/content/tarefas');
    await reader.getByTestId('kanban-read-only').waitFor(LONG_WAIT);
    expect(await reader.getByTestId('kanban-read-only').textContent()).toBe('Você não pode alterar “Estado”, então os cartões não podem ser movidos.');
    await expect.poll(() => reader.getByTestId('kanban-card').count(), LONG_WAIT).toBe(5);
    expect(await reader.getByTestId('kanban-card').first().getAttribute('draggable')).toBe('false');
    expect(await reader.getByTestId('kanban-column-title').last().textContent()).toBe('Sem valor');
    await expectNoEnglish(reader);
    await shot(reader, 'kanban-pt-BR-desktop');
    await atPhoneWidth(reader, () => shot(reader, 'kanban-pt-BR-390'));
  });

  it('calendar: items on their days, drag to another day reschedules, the month shown is kept; read-only and in Portuguese for a reader', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openList(page, 'calendar');
    const day = (date: string) => page.locator(`[data-testid="calendar-day"][data-day="${date}"]`);
    await day(`${month}-12`).getByText('Beta').waitFor(LONG_WAIT);
    await day(`${month}-12`).getByText('Gama').waitFor();
    await shot(page, 'calendar-en-US-desktop');

    const patched = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/items/tarefas/'));
    await day(`${month}-12`).getByText('Beta').dragTo(day(`${month}-20`));
    expect((await patched).status()).toBe(200);
    await expect.poll(async () => (await task('Beta'))?.prazo, LONG_WAIT).toBe(`${month}-20`);
    await day(`${month}-20`).getByText('Beta').waitFor(LONG_WAIT);
    await atPhoneWidth(page, async () => {
      await page.locator(`[data-testid="calendar-day"][data-day="${month}-20"]`).getByText('Beta').waitFor(LONG_WAIT);
      await shot(page, 'calendar-en-US-390');
    });

    await page.getByTestId('calendar-next').click();
    const shown = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(nextMonth);
    await expect.poll(() => page.getByTestId('calendar-month').textContent()).toBe(shown);
    const first = `${nextMonth.getFullYear()}-${String(nextMonth.getMonth() + 1).padStart(2, '0')}-01`;
    await expect.poll(async () => (await ownPreset())?.layout_options?.calendar, LONG_WAIT).toEqual({ viewInfo: { type: 'dayGridMonth', startDateTime: first } });
    await page.reload();
    await expect.poll(() => page.getByTestId('calendar-month').textContent(), LONG_WAIT).toBe(shown);

    const reader = await harness.newPage();
    await harness.signIn(reader, VIEWER.email, VIEWER.password);
    await openList(reader, 'calendar');
    await reader.getByTestId('calendar-read-only').waitFor(LONG_WAIT);
    await reader.locator(`[data-testid="calendar-day"][data-day="${month}-20"]`).getByText('Beta').waitFor(LONG_WAIT);
    expect(await reader.getByTestId('calendar-item').first().getAttribute('draggable')).toBe('false');
    const portuguese = new Intl.DateTimeFormat('pt-BR', { month: 'long', year: 'numeric' }).format(today);
    expect(await reader.getByTestId('calendar-month').textContent()).toBe(portuguese.charAt(0).toUpperCase() + portuguese.slice(1));
    await expectNoEnglish(reader);
    await shot(reader, 'calendar-pt-BR-desktop');
    await atPhoneWidth(reader, async () => {
      await reader.locator(`[data-testid="calendar-day"][data-day="${month}-20"]`).getByText('Beta').waitFor(LONG_WAIT);
      await shot(reader, 'calendar-pt-BR-390');
    });
  });

  it('table: column widths and row height kept in the preset and restored; cards in Portuguese at both widths', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openList(page, 'tabular');
    const header = page.locator('.ant-table-thead th').filter({ hasText: 'Titulo' });
    await header.waitFor(LONG_WAIT);
    const before = (await header.boundingBox())!.width;
    const handle = (await header.getByTestId('column-resize').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 150, handle.y + handle.height / 2, { steps: 6 });
    await page.mouse.up();
    await page.getByTestId('layout-options').click();
    await chooseOption(page, 'layout-option-choice-spacing', 'Compact');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await ownPreset())?.layout_options?.tabular, LONG_WAIT).toMatchObject({ spacing: 'compact', widths: { titulo: expect.any(Number) } });
    const saved = (await ownPreset())!.layout_options.tabular.widths.titulo as number;
    expect(saved).toBeGreaterThan(before + 100);
    await page.reload();
    await page.locator('.ant-table-small').waitFor(LONG_WAIT);
    await expect.poll(async () => Math.abs((await page.locator('.ant-table-thead th').filter({ hasText: 'Titulo' }).boundingBox())!.width - saved), LONG_WAIT).toBeLessThanOrEqual(2);
    await shot(page, 'table-en-US-desktop');
    await atPhoneWidth(page, () => shot(page, 'table-en-US-390'));

    const reader = await harness.newPage();
    await harness.signIn(reader, VIEWER.email, VIEWER.password);
    await openList(reader, 'cards');
    await expect.poll(() => reader.getByTestId('card').count(), LONG_WAIT).toBe(5);
    await reader.getByTestId('layout-options').click();
    await reader.getByTestId('layout-options-panel').waitFor();
    await expectNoEnglish(reader);
    await reader.keyboard.press('Escape');
    await shot(reader, 'cards-pt-BR-desktop');
    await atPhoneWidth(reader, async () => {
      await expectNoEnglish(reader);
      await shot(reader, 'cards-pt-BR-390');
    });
  });
});
