/**
 * How fast the admin shows the first page of a 10,000-item collection in each layout
 * (`npx node bench/admin-layouts.ts`; issue 32: "within 1 s on this machine").
 *
 * Creates a fresh PostgreSQL database, starts `tessera start` in a child process (NODE_ENV=production, the
 * built admin; built first when stale), seeds 10,000 tasks through the API (a dropdown status, a date
 * spread over three years, a manual order), signs in with Chromium (playwright-core) and, for each layout,
 * stores it as the administrator's view (a tessera_presets row, as the list itself does) and opens the
 * list: the time from navigation to the layout's first items on screen, and from the list's title (the app
 * shell, identity, schema and permissions are there) to those items: the layout's own part. The first
 * opening of each layout is reported apart (cold: its code chunk is fetched); then medians of warm runs,
 * the layouts taking turns so a busy machine slows them alike.
 *
 * With BENCH_BASE_ROOT (another checkout, e.g. /work/main, its admin built) a second server runs that
 * tree on a database of its own, seeded alike, and its table is measured in the same turns: the ratio
 * to it is what this machine's load cannot skew.
 *
 * Environment:
 *   BENCH_ITEMS=10000     tasks to seed
 *   BENCH_RUNS=7          warm openings per layout
 *   BENCH_BASE_ROOT       a checkout whose table is the baseline
 *   BENCH_PG_URL          PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 *   CHROMIUM_PATH         the browser (default /usr/bin/chromium)
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildAdmin, isAdminBuildStale } from '../server/admin-build.ts';
import { signIn, type Api } from './api.ts';
import { createBenchDatabase, startServer, type BenchDatabase, type ServerProcess } from './server.ts';

const BASE_ROOT = process.env.BENCH_BASE_ROOT ?? null;
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ADMIN = { email: 'bench-layouts@example.com', password: 'bench-layouts-password-1' };
const STATES = ['todo', 'doing', 'done'] as const;

/** Each layout and what shows that its first items are on screen. */
const LAYOUTS = [
  { id: 'tabular', ready: '.ant-table-row' },
  { id: 'cards', ready: '[data-testid="card"]' },
  { id: 'calendar', ready: '[data-testid="calendar-item"]' },
  { id: 'kanban', ready: '[data-testid="kanban-card"]' },
] as const;

async function seed(api: Api): Promise<void> {
  await api.call('POST', '/collections', {
    collection: 'tasks',
    meta: { sort_field: 'sort' },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'status', type: 'string', meta: { interface: 'select-dropdown', options: { choices: STATES.map((value) => ({ text: value, value })) } } },
      { field: 'due', type: 'date' },
      { field: 'sort', type: 'integer', meta: { hidden: true } },
    ],
  });
  const start = Date.now() - 540 * 86_400_000;
  for (let done = 0; done < ITEMS; done += 500) {
    const batch = Array.from({ length: Math.min(500, ITEMS - done) }, (_, index) => {
      const n = done + index;
      return { title: `Task ${n + 1}`, status: STATES[n % 3], due: new Date(start + ((n * 7919) % 1080) * 86_400_000).toISOString().slice(0, 10), sort: n + 1 };
    });
    await api.call('POST', '/items/tasks?fields=id', batch);
  }
}

/** Makes `layout` the administrator's saved view of the tasks. */
async function chooseLayout(api: Api, userId: string, layout: string): Promise<void> {
  const { data } = await api.call<{ data: Array<{ id: number }> }>('GET', `/presets?filter[user][_eq]=${userId}&filter[collection][_eq]=tasks&filter[bookmark][_null]=true&fields=id`);
  const body = { layout, layout_query: { tabular: { fields: ['id', 'title', 'status', 'due'], limit: 25 } } };
  if (data[0]) await api.call('PATCH', `/presets/${data[0].id}`, body);
  else await api.call('POST', '/presets', { ...body, collection: 'tasks', user: userId });
}

/** Opening times of one list: navigation → items, and list title → items. */
interface Timing {
  total: number;
  layout: number;
}

async function open(page: Page, ready: string): Promise<Timing> {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto('/admin/content/tasks');
  await page.getByTestId('collection-title').waitFor({ timeout: 60_000 });
  const titled = performance.now();
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  const shown = performance.now();
  return { total: shown - started, layout: shown - titled };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One server with its database, seeded, and a signed-in browser page on it. */
interface Side {
  name: string;
  api: Api;
  userId: string;
  page: Page;
  close(): Promise<void>;
}

async function startSide(name: string, root: string | undefined, browser: Browser): Promise<Side> {
  const database: BenchDatabase = await createBenchDatabase(`_layouts_${name}`);
  let server: ServerProcess | null = null;
  try {
    server = await startServer({ databaseUrl: database.url, secret: 'bench-layouts-secret-0123456789abcdef', adminEmail: ADMIN.email, adminPassword: ADMIN.password, root });
    const api = await signIn(server.base, ADMIN.email, ADMIN.password);
    const seeding = performance.now();
    await seed(api);
    console.log(`${name}: ${ITEMS} tasks seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const { data: me } = await api.call<{ data: { id: string } }>('GET', '/users/me?fields=id');
    const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1360, height: 860 } });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('user-menu').waitFor({ timeout: 60_000 });
    const running = server;
    return {
      name,
      api,
      userId: me.id,
      page,
      async close() {
        await context.close();
        await running.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await server?.stop();
    await database.drop();
    throw error;
  }
}

async function main(): Promise<void> {
  if (isAdminBuildStale()) await buildAdmin();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  const sides: Side[] = [];
  try {
    sides.push(await startSide('head', undefined, browser));
    if (BASE_ROOT) sides.push(await startSide('base', BASE_ROOT, browser));
    const [head, base] = sides as [Side, Side | undefined];
    // Each measured list: a side and a layout (the base shows only its table: that is what it had).
    const lists = [...LAYOUTS.map((layout) => ({ side: head, layout })), ...(base ? [{ side: base, layout: LAYOUTS[0] }] : [])];
    const cold = new Map<string, Timing>();
    const warm = new Map<string, Timing[]>();
    const key = (list: (typeof lists)[number]) => `${list.side.name} ${list.layout.id}`;
    for (let run = -1; run < RUNS; run++) {
      for (const list of lists) {
        await chooseLayout(list.side.api, list.side.userId, list.layout.id);
        const timing = await open(list.side.page, list.layout.ready);
        if (run < 0) cold.set(key(list), timing);
        else warm.set(key(list), [...(warm.get(key(list)) ?? []), timing]);
      }
    }
    console.log(`\nFirst page of ${ITEMS} items (ms): navigation → first items on screen, and list title → items (the layout's part)\n`);
    console.log(`list            cold  median  worst  layout median${base ? '  vs base table' : ''}`);
    const baseline = base ? median(warm.get(`base ${LAYOUTS[0].id}`)!.map((entry) => entry.total)) : null;
    for (const list of lists) {
      const runs = warm.get(key(list))!;
      const totals = runs.map((entry) => entry.total);
      const ratio = baseline ? `  ${(median(totals) / baseline).toFixed(2)}` : '';
      console.log(`${key(list).padEnd(14)} ${cold.get(key(list))!.total.toFixed(0).padStart(5)}  ${median(totals).toFixed(0).padStart(6)}  ${Math.max(...totals).toFixed(0).padStart(5)}  ${median(runs.map((entry) => entry.layout)).toFixed(0).padStart(13)}${ratio}`);
    }
  } finally {
    for (const side of sides) await side.close().catch((error: Error) => console.error(`closing ${side.name}: ${error.message}`));
    await browser.close();
  }
}

await main();
