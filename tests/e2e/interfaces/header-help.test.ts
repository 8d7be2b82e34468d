import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Issue 33: the header's `help` is plain text, in place and in its dialog: markup in it (a schema from
 * elsewhere, a Directus header whose help was rich text) is shown as written, never run or drawn.
 */
let harness: AdminHarness;
let send: Send;
let item: number;
const HELP = 'Leia <b>antes</b> <img src="x" onerror="window.__injected = true">\nSegunda linha';

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'avisos',
    meta: { display_template: '{{titulo}}' },
    fields: [
      { field: 'cabecalho', type: 'alias', meta: { interface: 'header', special: ['alias', 'no-data'], options: { title: 'Aviso {{titulo}}', help: HELP } } },
      { field: 'titulo', type: 'string' },
    ],
  });
  item = (await send('post', '/items/avisos', { titulo: 'Férias' })).id;
});
afterAll(async () => {
  await harness?.close();
});

describe('header help', () => {
  it('shows markup in the help as text, in place and in the dialog', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/avisos/${item}`);
    await page.getByTestId('header-cabecalho').getByText('Aviso Férias').waitFor({ timeout: 60_000 });
    await page.getByTestId('header-help-cabecalho').click();
    const inline = page.getByTestId('header-help-text-cabecalho');
    await inline.waitFor();
    expect(await inline.textContent()).toBe(HELP);
    expect(await inline.locator('b, img').count()).toBe(0);

    await send('patch', '/fields/avisos/cabecalho', { meta: { options: { title: 'Aviso {{titulo}}', help: HELP, helpDisplayMode: 'modal' } } });
    await page.reload();
    await page.getByTestId('header-help-cabecalho').click({ timeout: 60_000 });
    const dialog = page.locator('.ant-modal-body');
    await dialog.getByText('Segunda linha', { exact: false }).waitFor();
    expect(await dialog.textContent()).toBe(HELP);
    expect(await dialog.locator('b, img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
  });
});
