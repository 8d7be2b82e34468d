import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';
import { ARTICLES, DAY, VIEWER, choose, panelsOf, seedInsights, settledBox, type Send } from './insights-helpers.ts';

// The dashboards list, moving and resizing, permissions and pt-BR; building panels in the editor is insights-editor.test.ts.
let harness: AdminHarness;
let send: Send;
let dashboardId: string;

beforeAll(async () => {
  harness = await startAdmin();
  send = await seedInsights(harness);
});
afterAll(async () => {
  await harness?.close();
});

const panelNamed = async (name: string) => (await panelsOf(send, dashboardId)).find((panel) => panel.name === name)!;
const wordsOf = (rows: ReadonlyArray<{ words: number }>) => rows.reduce((total, row) => total + row.words, 0);

describe('insights: dashboards list', () => {
  it('creates a dashboard with icon, colour and note, edits it, and deletes another', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-dashboards').click();
    await page.getByTestId('insights-title').waitFor();

    await page.getByTestId('dashboard-create').click();
    await page.getByTestId('dashboard-save').click();
    await page.getByText('Required.').waitFor();
    await page.getByTestId('dashboard-name').fill('Newsroom');
    await choose(page, page.getByTestId('dashboard-icon'), 'bar_chart');
    await page.getByTestId('dashboard-color').click();
    await page.locator('.ant-color-picker-hex-input input').fill('1677FF');
    await page.getByTestId('dashboard-color').click();
    await page.locator('.ant-color-picker-hex-input input').waitFor({ state: 'hidden' });
    await page.getByTestId('dashboard-note').click();
    await page.getByTestId('dashboard-note').fill('What the newsroom published');
    await page.getByTestId('dashboard-save').click();
    // A new dashboard opens at once.
    await page.waitForURL(/\/admin\/insights\/[0-9a-f-]{36}$/);
    dashboardId = page.url().split('/').at(-1)!;
    const [stored] = (await send('get', '/dashboards?fields=*')) as Array<Record<string, unknown>>;
    expect(stored).toMatchObject({ id: dashboardId, name: 'Newsroom', icon: 'bar_chart', color: '#1677ff', note: 'What the newsroom published' });

    await send('post', '/dashboards', { name: 'Scratch', icon: 'dashboard' });
    await page.goto('/admin/insights');
    await page.getByTestId('dashboard-card-Scratch').waitFor();
    await page.getByTestId('dashboard-card-Newsroom').getByText('What the newsroom published').waitFor();
    await page.getByTestId('dashboard-edit-Scratch').click();
    await page.getByTestId('dashboard-name').fill('Scratch pad');
    await page.getByTestId('dashboard-save').click();
    await page.getByTestId('dashboard-card-Scratch pad').waitFor();
    await page.getByTestId('dashboard-delete-Scratch pad').click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('dashboard-card-Scratch pad').waitFor({ state: 'detached' });
    expect(((await send('get', '/dashboards?fields=name')) as Array<{ name: string }>).map((row) => row.name)).toEqual(['Newsroom']);
    await harness.screenshot(page, 'insights-list');
  });
});

describe('insights: a dashboard', () => {
  beforeAll(async () => {
    const base = { dashboard: dashboardId, show_header: true };
    await send('post', '/panels', [
      { ...base, name: 'Published per day', type: 'time-series', position_x: 1, position_y: 1, width: 12, height: 6, options: { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_at', precision: 'day', range: '1 week' } },
      { ...base, name: 'By status', type: 'bar-chart', position_x: 13, position_y: 1, width: 6, height: 6, options: { collection: 'articles', xAxis: 'status', function: 'count', yAxis: 'id' } },
      { ...base, name: 'Featured', type: 'pie-chart', position_x: 19, position_y: 1, width: 6, height: 6, options: { collection: 'articles', column: 'featured', function: 'count', donut: true, showLabels: true } },
      { ...base, name: 'Longest', type: 'list', position_x: 1, position_y: 7, width: 8, height: 5, options: { collection: 'articles', limit: 3, sortField: 'words', sortDirection: 'desc', displayTemplate: '{{title}} – {{author.name}}' } },
      { ...base, name: 'Words written', type: 'meter', position_x: 9, position_y: 7, width: 6, height: 5, options: { collection: 'articles', function: 'sum', field: 'words', goal: 2500, size: 'full' } },
      { ...base, name: 'Author', type: 'relational-variable', position_x: 15, position_y: 7, width: 5, height: 2, options: { field: 'author', collection: 'authors', displayTemplate: '{{name}}' } },
      { ...base, name: 'By this author', type: 'metric', position_x: 20, position_y: 7, width: 5, height: 2, options: { collection: 'articles', function: 'count', field: 'id', filter: { author: { _eq: '{{ author }}' } } } },
      { ...base, name: 'Authors', type: 'metric', position_x: 15, position_y: 9, width: 5, height: 3, options: { collection: 'authors', function: 'count', field: 'id' } },
      { ...base, name: 'In status', type: 'metric', position_x: 20, position_y: 9, width: 5, height: 3, options: { collection: 'articles', function: 'count', field: 'id', filter: { status: { _eq: '{{ status }}' } } } },
      { ...base, name: 'Articles', type: 'metric', position_x: 1, position_y: 12, width: 6, height: 3, options: { collection: 'articles', function: 'count', field: 'id', suffix: ' stories' } },
      // Panels below the one the layout test moves and resizes, so the page does not grow under the mouse.
      { ...base, name: 'Notes', type: 'label', position_x: 1, position_y: 15, width: 6, height: 3, options: { text: '## Weekly figures' } },
      { ...base, name: 'Situação', type: 'global-variable', position_x: 1, position_y: 18, width: 6, height: 2, options: { field: 'status', type: 'string', defaultValue: 'published' } },
    ]);
  });

  it('moves and resizes a panel, keeps the layout after a reload, and shows full screen', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/insights/${dashboardId}`);
    const articles = await panelNamed('Articles');
    const card = page.getByTestId(`panel-${articles.id}`);
    await card.waitFor();
    await page.getByTestId('dashboard-edit').click();

    const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
    const step = (grid.width - 12 * 23) / 24 + 12;
    await card.evaluate((element) => (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'center' }));
    await settledBox(card);
    const handle = (await page.getByTestId(`panel-drag-${articles.id}`).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    // Once a drag stops, the grid re-reads the panels; measure only after that.
    let reread = page.waitForResponse((response) => response.url().includes('/panels?') && response.request().method() === 'GET');
    await page.mouse.down();
    // In steps, so the grid sees a drag rather than a click.
    for (let index = 1; index <= 10; index++) await page.mouse.move(handle.x + handle.width / 2 + (step * 12 * index) / 10, handle.y + handle.height / 2, { steps: 2 });
    await page.mouse.up();
    await expect.poll(async () => (await panelNamed('Articles')).position_x, { timeout: 60_000 }).toBe(articles.position_x + 12);

    const moved = await panelNamed('Articles');
    await reread;
    await card.evaluate((element) => (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'center' }));
    await settledBox(card);
    const corner = (await card.locator('xpath=..').locator('.react-resizable-handle-se').boundingBox())!;
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    reread = page.waitForResponse((response) => response.url().includes('/panels?') && response.request().method() === 'GET');
    await page.mouse.down();
    for (let index = 1; index <= 10; index++) await page.mouse.move(corner.x + corner.width / 2 + (step * 3 * index) / 10, corner.y + corner.height / 2 + (52 * 2 * index) / 10, { steps: 2 });
    await page.mouse.up();
    await expect.poll(async () => { const now = await panelNamed('Articles'); return [now.width, now.height]; }, { timeout: 60_000 }).toEqual([moved.width + 3, moved.height + 2]);
    const stored = await panelNamed('Articles');
    expect(stored.position_x).toBe(moved.position_x);
    await reread;
    await page.getByTestId('dashboard-done').click();
    const before = await settledBox(card);

    await page.reload();
    await card.waitFor();
    const after = await settledBox(card);
    expect([after.x, after.y, after.width, after.height].map(Math.round)).toEqual([before.x, before.y, before.width, before.height].map(Math.round));
    await harness.screenshot(page, 'insights-moved');

    await page.getByTestId('dashboard-fullscreen').click();
    await page.locator('[data-testid="dashboard-frame"][data-fullscreen="true"]').waitFor();
    await expect.poll(async () => (await page.getByTestId('dashboard-frame').boundingBox())!.width).toBeGreaterThanOrEqual(1360 - 1);
    await harness.screenshot(page, 'insights-fullscreen');
    await page.getByTestId('dashboard-fullscreen').click();
    await page.locator('[data-testid="dashboard-frame"][data-fullscreen="false"]').waitFor();

    // Auto-refresh polls the server: a new article shows up without a reload.
    await choose(page, page.getByTestId('dashboard-refresh'), 'Every 10 s');
    await send('post', '/items/articles', { title: 'Late story', status: 'published', words: 10 });
    await page.getByTestId(`panel-content-${articles.id}`).filter({ hasText: new RegExp(`^${ARTICLES.length + 1} stories$`) }).waitFor({ timeout: 60_000 });
  }, 300_000);

  it('shows "No access" for a panel over a collection the viewer may not read, and the other panels', async () => {
    const page = await harness.newPage();
    await harness.signIn(page, VIEWER.email, VIEWER.password);
    await page.goto(`/admin/insights/${dashboardId}`);
    const authors = await panelNamed('Authors');
    const articles = await panelNamed('Articles');
    await page.getByTestId(`panel-content-${authors.id}-error`).filter({ hasText: 'No access' }).waitFor();
    await page.getByTestId(`panel-content-${articles.id}`).filter({ hasText: /stories$/ }).waitFor();
    // The author choices come from authors too.
    await page.getByTestId(`panel-content-${(await panelNamed('Author')).id}-error`).filter({ hasText: 'No access' }).waitFor();
    // No edit control for a reader.
    expect(await page.getByTestId('dashboard-edit').count()).toBe(0);
    await harness.screenshot(page, 'insights-viewer');
  });

  it('speaks Brazilian Portuguese with no English left, numbers and dates included', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/insights/${dashboardId}`);
    const meter = await panelNamed('Words written');
    await page.getByTestId(`panel-content-${meter.id}`).filter({ hasText: `${new Intl.NumberFormat('pt-BR').format(wordsOf(ARTICLES) + 10)} / 2.500` }).waitFor();
    const series = await panelNamed('Published per day');
    const yesterday = new Intl.DateTimeFormat('pt-BR', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.now() - DAY));
    await page.getByTestId(`panel-content-${series.id}`).locator('svg text', { hasText: yesterday }).waitFor();
    await expectNoEnglish(page);
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId('panel-add').click();
    await page.getByTestId('panel-form').waitFor();
    // The filter builder with a condition, in Portuguese too.
    await choose(page, page.getByTestId('panel-option-collection'), 'Articles');
    await page.getByTestId('panel-filter').getByTestId('filter-add').click();
    await page.getByTestId('panel-filter').getByTestId('filter-rule-0').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'insights-pt-BR');
    await send('patch', '/users/me', { language: null });
  });

  it('opens a filter the builder cannot show (nested groups) as JSON, and saves an edit of it', async () => {
    const nested = (words: number) => ({ _or: [{ status: { _eq: 'draft' } }, { _and: [{ featured: { _eq: true } }, { words: { _gte: words } }] }] });
    const matching = (words: number) => ARTICLES.filter((article) => article.status === 'draft' || (article.featured && article.words >= words)).length;
    const [panel] = await send('post', '/panels', [{ dashboard: dashboardId, name: 'Nested', type: 'metric', position_x: 1, position_y: 40, width: 6, height: 3, options: { collection: 'articles', function: 'count', field: 'id', filter: nested(500) } }]);
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/insights/${dashboardId}`);
    await page.getByTestId(`panel-content-${panel.id}`).filter({ hasText: new RegExp(`^${matching(500)}$`) }).waitFor();
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId(`panel-edit-${panel.id}`).click();
    const json = page.getByTestId('panel-form').locator('textarea');
    expect(JSON.parse(await json.inputValue())).toEqual(nested(500));
    expect(await page.getByTestId('panel-filter').count()).toBe(0);
    await json.fill(JSON.stringify(nested(10)));
    await page.getByTestId('panel-preview').filter({ hasText: new RegExp(`^${matching(10)}$`) }).waitFor();
    await page.getByTestId('panel-save').click();
    await page.getByTestId('panel-form').waitFor({ state: 'detached' });
    expect((await panelNamed('Nested')).options.filter).toEqual(nested(10));
  });
});
