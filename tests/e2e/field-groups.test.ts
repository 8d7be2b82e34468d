import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';
import { animationsDone } from './interfaces/interface-kit.ts';

let harness: AdminHarness;
let token: string;
const GROUP = ['alias', 'no-data', 'group'];

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'pages',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string', meta: { sort: 1 } },
      { field: 'details', type: 'alias', meta: { special: GROUP, interface: 'group-detail', sort: 2 } },
      { field: 'summary', type: 'string', meta: { group: 'details', sort: 2 } },
      { field: 'subtitle', type: 'string', meta: { group: 'details', sort: 1 } },
      { field: 'more', type: 'alias', meta: { special: GROUP, interface: 'group-accordion', sort: 3 } },
      { field: 'links', type: 'alias', meta: { special: GROUP, interface: 'group-raw', group: 'more', sort: 1 } },
      { field: 'website', type: 'string', meta: { group: 'links' } },
      { field: 'notes', type: 'alias', meta: { special: GROUP, interface: 'group-raw', group: 'more', sort: 2 } },
      { field: 'remark', type: 'text', meta: { group: 'notes', interface: 'input-multiline' } },
      { field: 'footer', type: 'string', meta: { sort: 4 } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('field groups', () => {
  it('holds the children of each group in the item form, ordered by meta.sort, and saves them', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/pages/+');
    const details = page.getByTestId('group-details');
    await details.waitFor();
    // group-detail: a collapsible panel holding subtitle (sort 1) then summary (sort 2).
    const inDetails = await details.locator('[data-testid^="field-"]').evaluateAll((nodes) => nodes.map((node) => (node as unknown as { dataset: Record<string, string> }).dataset.testid));
    expect(inDetails).toEqual(['field-subtitle', 'field-summary']);
    // The form's top level: title, the detail group, the accordion, footer.
    const order = await page.locator('[data-testid="field-title"], [data-testid^="group-"], [data-testid="field-footer"]').evaluateAll((nodes) => nodes.map((node) => (node as unknown as { dataset: Record<string, string> }).dataset.testid ?? ''));
    expect(order.filter((id) => ['field-title', 'group-details', 'group-more', 'field-footer'].includes(id))).toEqual(['field-title', 'group-details', 'group-more', 'field-footer']);

    await page.locator('#field-title').fill('About us');
    await page.locator('#field-subtitle').fill('Who we are');
    // group-accordion: one panel per child group; the first is open, opening another closes it.
    const more = page.getByTestId('group-more');
    await more.getByTestId('field-website').locator('input').fill('https://acme.example');
    await more.locator('.ant-collapse-header').filter({ hasText: 'Notes' }).click();
    await more.getByTestId('field-remark').locator('textarea').fill('Updated yearly');
    await harness.screenshot(page, 'groups-item-form');
    // Collapsing the detail group hides its fields but keeps their values.
    await details.locator('.ant-collapse-header').filter({ hasText: 'Details' }).click();
    await page.getByTestId('save-item').click();
    await expect.poll(async () => (await api('get', '/items/pages?fields=title,subtitle,website,remark'))[0] ?? null).toEqual({ title: 'About us', subtitle: 'Who we are', website: 'https://acme.example', remark: 'Updated yearly' });
  });

  it('creates a group in the data model and moves a field into it and out again', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/pages');
    await page.getByTestId('collection-title').waitFor();
    await page.getByTestId('field-row-remark').waitFor();
    // The data model nests each group's fields under it, in the item form's order, indented by depth.
    const rows = await page
      .locator('tr[data-testid^="field-row-"]')
      .evaluateAll((nodes) => nodes.map((node) => (node as unknown as { dataset: Record<string, string> }).dataset).map((data) => `${data.testid!.slice('field-row-'.length)}:${data.depth}`));
    expect(rows).toEqual(['id:0', 'title:0', 'details:0', 'subtitle:1', 'summary:1', 'more:0', 'links:1', 'website:2', 'notes:1', 'remark:2', 'footer:0']);
    const nameLeft = async (field: string) => (await page.getByTestId(`field-row-${field}`).locator('strong').first().boundingBox())!.x;
    expect(await nameLeft('website')).toBeGreaterThan(await nameLeft('links'));
    expect(await nameLeft('links')).toBeGreaterThan(await nameLeft('more'));
    // Moving is among a group's own fields: summary goes above subtitle, inside details.
    await expect.poll(async () => page.getByTestId('field-up-subtitle').isDisabled()).toBe(true);
    await page.getByTestId('field-up-summary').click();
    await expect.poll(async () => (await api('get', '/fields/pages/summary')).meta.sort).toBe(1);
    expect((await api('get', '/fields/pages/subtitle')).meta).toMatchObject({ sort: 2, group: 'details' });
    await harness.screenshot(page, 'groups-data-model-nested');
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-name').fill('seo');
    await page.getByTestId('group-save').click();
    await page.getByTestId('field-row-seo').waitFor();
    expect(await api('get', '/fields/pages/seo')).toMatchObject({ type: 'alias', meta: { special: GROUP, interface: 'group-detail' } });

    await page.getByTestId('field-edit-footer').click();
    await page.getByTestId('field-group').click();
    // The list slides in: a click while it moves can miss the option and save the field without a group.
    const seo = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('seo', { exact: true });
    await seo.waitFor();
    await animationsDone(page);
    await seo.click();
    await expect.poll(() => page.getByTestId('field-group').textContent()).toContain('seo');
    await page.getByTestId('field-save').click();
    await page.getByTestId('field-group-tag-footer').waitFor();
    await expect.poll(async () => (await api('get', '/fields/pages/footer')).meta.group).toBe('seo');
    await harness.screenshot(page, 'groups-data-model');

    await page.goto('/admin/content/pages/+');
    await page.getByTestId('group-seo').getByTestId('field-footer').waitFor();

    await page.goto('/admin/data-model/pages');
    await page.getByTestId('field-edit-footer').click();
    await page.getByTestId('field-group').hover();
    await page.getByTestId('field-group').locator('.ant-select-clear').click();
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await api('get', '/fields/pages/footer')).meta.group).toBeNull();
    await page.getByTestId('field-row-footer').waitFor();
    await expect.poll(() => page.getByTestId('field-group-tag-footer').count()).toBe(0);
  });
});
