import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { chooseOption, startSignedInAdmin, type Send } from './interface-kit.ts';

/** The repeater (`list`): its own fields defined in the field drawer, rows edited, moved and removed in the item form. */
let harness: AdminHarness;
let send: Send;

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'recipes', meta: { display_template: '{{nome}}' }, fields: [{ field: 'nome', type: 'string' }] });
});
afterAll(async () => {
  await harness?.close();
});

describe('repeater', () => {
  it('defines its fields in the field drawer, then adds, moves and removes rows in the item form', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/recipes');
    await page.getByTestId('field-create').click();
    await page.getByTestId('field-name').fill('etapas');
    // The type list is long (a virtual list): typing narrows it.
    await page.getByTestId('field-type').click();
    await page.keyboard.type('json');
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('JSON (json)', { exact: true }).click();
    await chooseOption(page, 'field-interface', 'Repeater');
    const fields = page.getByTestId('repeater-fields');
    await fields.getByTestId('repeater-field-add').click();
    await fields.getByTestId('repeater-field-key-0').fill('action');
    await fields.getByTestId('repeater-field-name-0').fill('Action');
    await fields.getByTestId('repeater-field-add').click();
    await fields.getByTestId('repeater-field-key-1').fill('minutes');
    await fields.getByTestId('repeater-field-name-1').fill('Minutes');
    await chooseOption(page, 'repeater-field-type-1', 'Integer');
    await page.getByTestId('option-template').locator('input').fill('{{action}} ({{minutes}} min)');
    await harness.screenshot(page, 'interfaces-repeater-options');
    await page.getByTestId('field-save').click();
    await page.getByTestId('field-row-etapas').waitFor();
    expect(await send('get', '/fields/recipes/etapas')).toMatchObject({
      type: 'json',
      meta: {
        interface: 'list',
        options: {
          template: '{{action}} ({{minutes}} min)',
          fields: [
            { field: 'action', name: 'Action', type: 'string', meta: { interface: 'input' } },
            { field: 'minutes', name: 'Minutes', type: 'integer', meta: { interface: 'input' } },
          ],
        },
      },
    });

    await page.goto('/admin/content/recipes/+');
    await page.locator('#field-nome').fill('Tea');
    const repeater = page.getByTestId('repeater-etapas');
    for (const [index, [action, minutes]] of [['Boil water', '5'], ['Steep', '3']].entries()) {
      await repeater.getByTestId('repeater-add-etapas').click();
      await repeater.getByTestId(`repeater-etapas-${index}-action`).locator('input').fill(action!);
      await repeater.getByTestId(`repeater-etapas-${index}-minutes`).locator('input').fill(minutes!);
    }
    // Each row is titled by the template.
    await repeater.getByText('Steep (3 min)').waitFor();
    await repeater.getByTestId('repeater-row-etapas-1').getByRole('button', { name: 'Move up' }).click();
    await repeater.getByTestId('repeater-row-etapas-0').getByText('Steep (3 min)').waitFor();
    await harness.screenshot(page, 'interfaces-repeater-form');
    const created = page.waitForResponse((response) => response.url().includes('/items/recipes') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    expect((await created).status()).toBe(200);
    const [tea] = await send('get', '/items/recipes?fields=id,etapas&filter[nome][_eq]=Tea');
    expect(tea.etapas).toEqual([
      { action: 'Steep', minutes: 3 },
      { action: 'Boil water', minutes: 5 },
    ]);

    await page.goto(`/admin/content/recipes/${tea.id}`);
    await repeater.getByText('Boil water (5 min)').waitFor();
    await repeater.getByTestId('repeater-row-etapas-0').getByRole('button', { name: 'Remove' }).click();
    const saved = page.waitForResponse((response) => response.url().includes(`/items/recipes/${tea.id}`) && response.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    expect((await saved).status()).toBe(200);
    expect((await send('get', `/items/recipes/${tea.id}?fields=etapas`)).etapas).toEqual([{ action: 'Boil water', minutes: 5 }]);
  });

  it('speaks Brazilian Portuguese in the options and the item form', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/recipes');
    await page.getByTestId('field-edit-etapas').click();
    await page.getByText('Campos de cada linha').waitFor();
    await expectNoEnglish(page);
    await page.goto('/admin/content/recipes/+');
    await page.getByTestId('repeater-add-etapas').getByText('Adicionar linha').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'interfaces-repeater-pt-BR');
  });
});
