import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from '../harness.ts';
import { ARTICLES, AUTHORS, DAY, addFilterRule, addPanel, choose, panelsOf, savePanel, seedInsights, type Send } from './insights-helpers.ts';

let harness: AdminHarness;
let send: Send;
let dashboardId: string;

beforeAll(async () => {
  harness = await startAdmin();
  send = await seedInsights(harness);
  dashboardId = (await send('post', '/dashboards', { name: 'Newsroom', icon: 'bar_chart' })).id;
});
afterAll(async () => {
  await harness?.close();
});

// Every expected figure is computed from the seeded rows.
const published = ARTICLES.filter((article) => article.status === 'published');
const count = (predicate: (article: (typeof ARTICLES)[number]) => boolean) => ARTICLES.filter(predicate).length;
const sumWords = (rows: ReadonlyArray<(typeof ARTICLES)[number]>) => rows.reduce((total, article) => total + article.words, 0);
const en = (value: number) => new Intl.NumberFormat('en-US').format(value);

/**
 * The dashboard's data as the page receives it after a reload (one request for every panel). Waited for once
 * the new document is committed: a data request of the page before, answered as the reload began, would
 * match too, and its body is gone with that page.
 */
async function reloadForData(page: Page): Promise<Record<string, any>> {
  await page.reload({ waitUntil: 'commit' });
  const answer = await page.waitForResponse((response) => response.url().includes(`/dashboards/${dashboardId}/data`) && response.status() === 200);
  return ((await answer.json()) as { data: Record<string, any> }).data;
}

describe('insights: building a dashboard in the editor', () => {
  it('adds a panel of every type through the editor, with filters built in the filter builder, and shows the seeded data', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/insights/${dashboardId}`);
    await page.getByTestId('dashboard-title').getByText('Newsroom').waitFor();
    await page.getByTestId('dashboard-edit').click();

    // metric: the preview is computed by the server as the options change.
    await addPanel(page, 'Metric', 'Articles');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${ARTICLES.length}$`) }).waitFor();
    await page.getByTestId('panel-option-suffix').fill(' stories');
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${ARTICLES.length} stories$`) }).waitFor();
    await savePanel(page);

    // metric with a filter built in the builder: published words, then a second condition narrows it.
    await addPanel(page, 'Metric', 'Published words');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await choose(page, page.getByTestId('panel-option-function'), 'Sum');
    await choose(page, page.getByTestId('panel-option-field'), 'words');
    await addFilterRule(page, { field: 'Status', choice: 'Published' });
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${en(sumWords(published))}$`) }).waitFor();
    await addFilterRule(page, { field: 'Words', operator: 'greater than or equal to', text: '300' });
    const longPublished = published.filter((article) => article.words >= 300);
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${en(sumWords(longPublished))}$`) }).waitFor();
    await harness.screenshot(page, 'insights-filter-builder');
    await savePanel(page);

    // time-series, several series by a field.
    await addPanel(page, 'Time series', 'Published per day');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await choose(page, page.getByTestId('panel-option-dateField'), 'published_at');
    await choose(page, page.getByTestId('panel-option-precision'), 'Day');
    await choose(page, page.getByTestId('panel-option-range'), 'Last week');
    await choose(page, page.getByTestId('panel-option-groupBy'), 'featured');
    await page.getByTestId('panel-preview').locator('svg').first().waitFor();
    await savePanel(page);

    // bar-chart and pie-chart, grouped by a field.
    await addPanel(page, 'Bar chart', 'By status');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await choose(page, page.getByTestId('panel-option-xAxis'), 'status');
    await page.getByTestId('panel-preview').locator('svg text', { hasText: /^published$/ }).waitFor();
    await savePanel(page);
    await addPanel(page, 'Pie chart', 'Featured');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await choose(page, page.getByTestId('panel-option-column'), 'featured');
    await page.getByTestId('panel-preview').locator('svg text', { hasText: /^Yes$/ }).waitFor();
    await savePanel(page);

    // list with a display template and a sort.
    await addPanel(page, 'List', 'Longest');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await page.getByTestId('panel-option-displayTemplate').fill('{{title}} – {{author.name}}');
    await choose(page, page.getByTestId('panel-option-sortField'), 'words');
    await choose(page, page.getByTestId('panel-option-sortDirection'), 'Descending');
    await page.getByTestId('panel-option-limit').fill('3');
    const longest = [...ARTICLES].sort((a, b) => b.words - a.words).slice(0, 3);
    await page.getByTestId('panel-preview').getByText(`${longest[0]!.title} – ${AUTHORS[longest[0]!.author]}`).waitFor();
    await savePanel(page);

    // meter: a value against a goal.
    await addPanel(page, 'Meter', 'Words written');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await choose(page, page.getByTestId('panel-option-function'), 'Sum');
    await choose(page, page.getByTestId('panel-option-field'), 'words');
    await page.getByTestId('panel-option-goal').fill('2500');
    await page.getByTestId('panel-preview').filter({ hasText: `${en(sumWords(ARTICLES))} / 2,500` }).waitFor();
    await savePanel(page);

    // label (markdown).
    await addPanel(page, 'Label');
    await page.getByTestId('panel-option-text').fill('## Weekly figures\nNumbers refresh **live**.');
    await page.getByTestId('panel-preview').getByRole('heading', { name: 'Weekly figures' }).waitFor();
    await savePanel(page);

    // global-variable: a bad name is refused in the form, a good one saved with its default.
    await addPanel(page, 'Global variable', 'Situação');
    await page.getByTestId('panel-option-defaultValue').waitFor();
    await page.getByTestId('panel-option-field').fill('Bad name');
    await page.getByTestId('panel-save').click();
    await page.getByText('Lowercase letters, digits and underscores, not starting with a digit.').waitFor();
    await page.getByTestId('panel-option-field').fill('status');
    await page.getByTestId('panel-option-defaultValue').fill('published');
    await savePanel(page);

    // relational-variable over authors.
    await addPanel(page, 'Relational variable', 'Author');
    // The options of the new type replace the previous type's on a later render: fill the new form's field.
    await page.getByTestId('panel-option-displayTemplate').waitFor();
    await page.getByTestId('panel-option-field').fill('author');
    await choose(page, page.getByTestId('panel-option-collection'), 'Authors');
    await page.getByTestId('panel-option-displayTemplate').fill('{{name}}');
    await savePanel(page);

    // Metrics whose filters use the variables: picked among the choices, or typed.
    await addPanel(page, 'Metric', 'In status');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await addFilterRule(page, { field: 'Status', choice: '{{ status }}' });
    await savePanel(page);
    await addPanel(page, 'Metric', 'By this author');
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await addFilterRule(page, { field: 'Author', text: '{{ author }}' });
    // A boolean field with variables around: Yes/No or a variable, picked from a list.
    await addFilterRule(page, { field: 'Featured', choice: 'Yes' });
    await savePanel(page);
    await page.getByTestId('dashboard-done').click();

    // What was stored: the options the forms built, filters included.
    const panels = await panelsOf(send, dashboardId);
    expect(panels.map((panel) => panel.type).sort()).toEqual(['bar-chart', 'global-variable', 'label', 'list', 'meter', 'metric', 'metric', 'metric', 'metric', 'pie-chart', 'relational-variable', 'time-series']);
    const named = (name: string) => panels.find((panel) => panel.name === name)!;
    expect(named('Articles').options).toEqual({ collection: 'articles', function: 'count', field: 'id', notation: 'standard', conditionalFormatting: [], suffix: ' stories' });
    expect(named('Published words').options.filter).toEqual({ _and: [{ status: { _eq: 'published' } }, { words: { _gte: 300 } }] });
    expect(named('Published per day').options).toMatchObject({ collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', precision: 'day', range: '1 week', groupBy: 'featured' });
    expect(named('Longest').options).toMatchObject({ displayTemplate: '{{title}} – {{author.name}}', sortField: 'words', sortDirection: 'desc', limit: 3 });
    expect(named('In status').options.filter).toEqual({ status: { _eq: '{{ status }}' } });
    expect(named('By this author').options.filter).toEqual({ _and: [{ author: { _eq: '{{ author }}' } }, { featured: { _eq: true } }] });
    expect(panels.find((panel) => panel.type === 'global-variable')).toMatchObject({ name: 'Situação', options: { field: 'status', type: 'string', defaultValue: 'published' } });
    expect(named('Author').options).toMatchObject({ field: 'author', collection: 'authors', displayTemplate: '{{name}}' });
    // New panels fill the rows from the top instead of piling up in one column.
    expect(new Set(panels.map((panel) => panel.position_x)).size).toBeGreaterThan(2);

    // The server's data for every panel, after a reload, against the seeded rows.
    const data = await reloadForData(page);
    const id = (name: string) => named(name).id as string;
    expect(data[id('Articles')]).toEqual({ value: ARTICLES.length });
    expect(data[id('Published words')]).toEqual({ value: sumWords(longPublished) });
    expect(data[id('Words written')]).toEqual({ value: sumWords(ARTICLES), goal: 2500 });
    expect(data[id('In status')]).toEqual({ value: published.length });
    // No author chosen yet: the author condition is left out, the featured one stays.
    expect(data[id('By this author')]).toEqual({ value: count((article) => article.featured) });
    const series = data[id('Published per day')] as { buckets: string[]; series: Array<{ name: string | null; values: number[] }> };
    expect(series.buckets.length).toBeGreaterThanOrEqual(7);
    for (const featured of [true, false]) {
      const line = series.series.find((entry) => entry.name === String(featured))!;
      expect(line.values.reduce((total, value) => total + value, 0)).toBe(count((article) => article.daysAgo !== null && article.featured === featured));
    }
    const byStatus = Object.fromEntries((data[id('By status')].groups as Array<{ key: string; value: number }>).map((group) => [group.key, group.value]));
    expect(byStatus).toEqual({ draft: count((article) => article.status === 'draft'), published: published.length });
    expect(data[id('Longest')].items.map((item: { title: string }) => item.title)).toEqual(longest.map((article) => article.title));

    // And on screen.
    const content = (name: string) => page.getByTestId(`panel-content-${id(name)}`);
    await content('Articles').filter({ hasText: new RegExp(`^${ARTICLES.length} stories$`) }).waitFor();
    await content('Published words').filter({ hasText: new RegExp(`^${en(sumWords(longPublished))}$`) }).waitFor();
    await content('In status').filter({ hasText: new RegExp(`^${published.length}$`) }).waitFor();
    for (const article of longest) await content('Longest').getByText(`${article.title} – ${AUTHORS[article.author]}`).waitFor();
    await content('Words written').filter({ hasText: `${en(sumWords(ARTICLES))} / 2,500` }).waitFor();
    await content('By status').locator('svg text', { hasText: /^draft$/ }).waitFor();
    const share = `${((100 * count((article) => article.featured)) / ARTICLES.length).toFixed(1)} %`;
    await content('Featured').locator('svg text', { hasText: new RegExp(`^${share.replace('.', '\\.')}$`) }).waitFor();
    const yesterday = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.now() - DAY));
    await content('Published per day').locator('svg text', { hasText: new RegExp(`^${yesterday}$`) }).waitFor();
    // One line per value of the boolean field, named Yes/No in the legend.
    await content('Published per day').locator('svg text', { hasText: /^Yes$/ }).waitFor();
    await content('Published per day').locator('svg text', { hasText: /^No$/ }).waitFor();
    await page.getByTestId(`panel-content-${panels.find((panel) => panel.type === 'label')!.id}`).getByRole('heading', { name: 'Weekly figures' }).waitFor();
    await harness.screenshot(page, 'insights-built');

    // Variables: typing a status and choosing an author change what the panels count.
    await content('Situação').fill('draft');
    await content('In status').filter({ hasText: new RegExp(`^${count((article) => article.status === 'draft')}$`) }).waitFor();
    await choose(page, content('Author'), AUTHORS[2]);
    await content('By this author').filter({ hasText: new RegExp(`^${count((article) => article.author === 2 && article.featured)}$`) }).waitFor();

    // A date range override narrows the time series to fewer buckets.
    const bucketsBefore = await content('Published per day').locator('svg text').count();
    await choose(page, page.getByTestId('dashboard-range'), 'Last day');
    await expect.poll(() => content('Published per day').locator('svg text').count(), { timeout: 60_000 }).toBeLessThan(bucketsBefore);

    // A stored filter opens in the builder again, and an edit through it is saved.
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId(`panel-edit-${id('Published words')}`).click();
    const rules = page.getByTestId('panel-filter').locator('[data-testid^="filter-rule-"]');
    await expect.poll(() => rules.count(), { timeout: 60_000 }).toBe(2);
    await rules.nth(1).getByRole('button', { name: 'Remove condition' }).click();
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${en(sumWords(published))}$`) }).waitFor();
    await savePanel(page);
    await expect.poll(async () => (await panelsOf(send, dashboardId)).find((panel) => panel.name === 'Published words')!.options.filter, { timeout: 60_000 }).toEqual({ status: { _eq: 'published' } });
    await page.getByTestId('dashboard-done').click();

    // Dark appearance.
    await send('patch', '/users/me', { appearance: 'dark' });
    await page.reload();
    await content('Articles').filter({ hasText: new RegExp(`^${ARTICLES.length} stories$`) }).waitFor();
    await content('By status').locator('svg text', { hasText: /^published$/ }).waitFor();
    expect(await page.evaluate('document.documentElement.style.colorScheme')).toBe('dark');
    await harness.screenshot(page, 'insights-built-dark');
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId(`panel-edit-${id('By this author')}`).click();
    await page.getByTestId('panel-filter').getByTestId('filter-rule-0').waitFor();
    await harness.screenshot(page, 'insights-filter-builder-dark');
    await send('patch', '/users/me', { appearance: null });
  }, 300_000);
});
