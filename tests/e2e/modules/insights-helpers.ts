import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AdminHarness } from '../harness.ts';
import { animationsDone } from '../interfaces/interface-kit.ts';
import { seedNewsroom } from '../seed.ts';

export const DAY = 86_400_000;
export const VIEWER = { email: 'viewer@example.com', password: 'viewer-password-1' };
export const AUTHORS = { 1: 'Ada Lovelace', 2: 'Grace Hopper' } as const;

/** The articles the Insights browser tests seed; expected panel figures are computed from these rows. */
export const ARTICLES = [
  { title: 'Big story', status: 'published', words: 900, featured: true, author: 1, daysAgo: 1 },
  { title: 'Second story', status: 'published', words: 400, featured: false, author: 2, daysAgo: 2 },
  { title: 'Third story', status: 'published', words: 300, featured: false, author: 1, daysAgo: 2 },
  { title: 'Short note', status: 'published', words: 50, featured: true, author: 2, daysAgo: 4 },
  { title: 'Draft one', status: 'draft', words: 120, featured: false, author: 1, daysAgo: null },
  { title: 'Draft two', status: 'draft', words: 80, featured: false, author: 2, daysAgo: null },
] as const;

export type Send = Awaited<ReturnType<typeof seedNewsroom>>['send'];

/** The newsroom schema with `published_at`, the articles above, and a viewer who may read dashboards and articles but not authors. */
export async function seedInsights(harness: AdminHarness): Promise<Send> {
  const { send } = await seedNewsroom(harness.app);
  await send('post', '/fields/articles', { field: 'published_at', type: 'timestamp' });
  const now = Date.now();
  await send(
    'post',
    '/items/articles',
    ARTICLES.map(({ daysAgo, ...article }) => ({ ...article, published_at: daysAgo === null ? null : new Date(now - daysAgo * DAY).toISOString() })),
  );
  const role = await send('post', '/roles', { name: 'Viewer', app_access: true, admin_access: false });
  await send('post', '/users', { ...VIEWER, role: role.id, status: 'active' });
  await send('post', '/permissions', ['tessera_dashboards', 'tessera_panels', 'articles'].map((collection) => ({ role: role.id, collection, action: 'read', fields: ['*'] })));
  return send;
}

/** Opens an antd select and picks the option with this exact text. */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await animationsDone(page);
  await select.click();
  // Long lists are virtual: narrow a searchable one down so the option is rendered.
  if (await select.evaluate((element) => !!(element as unknown as { closest(selector: string): unknown }).closest('.ant-select-show-search'))) await page.keyboard.type(option);
  // The list slides in: a click while it moves can land beside the option (a filter field never picked).
  await animationsDone(page);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first().click();
}

/** The box of an element once it has stopped moving (grid items glide to their place with a CSS transition). */
export async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = '';
  let box = (await locator.boundingBox())!;
  await expect
    .poll(async () => {
      box = (await locator.boundingBox())!;
      const now = JSON.stringify(box);
      const still = now === last;
      last = now;
      return still;
    }, { interval: 150, timeout: 60_000 })
    .toBe(true);
  return box;
}

export const panelsOf = async (send: Send, dashboard: string) => (await send('get', `/panels?filter[dashboard][_eq]=${dashboard}&fields=*&limit=-1`)) as Array<Record<string, any>>;

/** Opens the panel editor (in edit mode) on a new panel of the type with this label. */
export async function addPanel(page: Page, typeLabel: string, name?: string): Promise<void> {
  await page.getByTestId('panel-add').click();
  await page.getByTestId('panel-form').waitFor();
  if (typeLabel !== 'Metric') await choose(page, page.getByTestId('panel-type'), typeLabel);
  if (name) await page.getByTestId('panel-name').fill(name);
}

/** Saves the open panel editor and waits for it to close. */
export async function savePanel(page: Page): Promise<void> {
  await page.getByTestId('panel-save').click();
  try {
    await page.getByTestId('panel-form').waitFor({ state: 'detached' });
  } catch (error) {
    // Say why the editor stayed open (a refused save, a field the form flags), not only that it did.
    const shown = await page.locator('.ant-form-item-explain-error, .ant-alert, .ant-message-notice').allInnerTexts();
    throw new Error(`The panel editor stayed open after Save; it shows: ${JSON.stringify(shown)}`, { cause: error });
  }
}

/** Adds a condition to the open editor's filter builder: a field, an operator label (or the field's first), and a value picked or typed. */
export async function addFilterRule(page: Page, rule: { field: string; operator?: string; choice?: string; text?: string }): Promise<void> {
  const builder = page.getByTestId('panel-filter');
  const index = await builder.locator('[data-testid^="filter-rule-"]').count();
  await builder.getByTestId('filter-add').click();
  const row = builder.getByTestId(`filter-rule-${index}`);
  await choose(page, row.getByTestId('filter-field'), rule.field);
  if (rule.operator) await choose(page, row.getByTestId('filter-operator'), rule.operator);
  if (rule.choice) await choose(page, row.getByTestId('filter-value-choice'), rule.choice);
  // No Escape afterwards: it would close the editor's drawer.
  if (rule.text !== undefined) await row.getByRole('combobox', { name: 'Value' }).fill(rule.text);
}
