/**
 * How fast the admin shows the first page of a 10,000-item collection in each layout
 * (`npx node bench/admin-layouts.ts`; issue 32: "within 1 s on this machine").
 *
 * Creates a fresh PostgreSQL database, starts `tessera start` in a child process (NODE_ENV=production, the
 * built admin; built first when stale), seeds 10,000 tasks through the API (a dropdown status, a date
 * spread over three years, a manual order), signs in with Chromium (playwright-core) and, for each layout,
 * stores it as the administrator's view (a tessera_presets row, as the list itself does) and opens the
 * list: the time from navigation to the layout's first items on screen. The first opening of each layout
 * is reported apart (cold: its code chunk is fetched); then the median and worst of the warm runs.
 *
 * Environment:
 *   BENCH_ITEMS=10000     tasks to seed
 *   BENCH_RUNS=7          warm openings per layout
 *   BENCH_PG_URL          PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 *   CHROMIUM_PATH         the browser (default /usr/bin/chromium)
 */
import { chromium, type Page } from 'playwright-core';
import { buildAdmin, isAdminBuildStale } from '../server/admin-build.ts';
import { signIn, type Api } from './api.ts';
import { createBenchDatabase, startServer, type BenchDatabase, type ServerProcess } from './server.ts';

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

async function open(page: Page, ready: string): Promise<number> {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto('/admin/content/tasks');
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (isAdminBuildStale()) await buildAdmin();
  let database: BenchDatabase | null = null;
  let server: ServerProcess | null = null;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  try {
    database = await createBenchDatabase('_layouts');
    server = await startServer({ databaseUrl: database.url, secret: 'bench-layouts-secret-0123456789abcdef', adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    const api = await signIn(server.base, ADMIN.email, ADMIN.password);
    const seeding = performance.now();
    await seed(api);
    console.log(`${ITEMS} tasks seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const { data: me } = await api.call<{ data: { id: string } }>('GET', '/users/me?fields=id');

    const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1360, height: 860 } });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('user-menu').waitFor({ timeout: 60_000 });

    console.log(`\nFirst page of ${ITEMS} items, navigation → first items on screen (ms)\n`);
    console.log('layout     cold   median  worst');
    for (const layout of LAYOUTS) {
      await chooseLayout(api, me.id, layout.id);
      const cold = await open(page, layout.ready);
      const warm: number[] = [];
      for (let run = 0; run < RUNS; run++) warm.push(await open(page, layout.ready));
      console.log(`${layout.id.padEnd(9)} ${cold.toFixed(0).padStart(5)}  ${median(warm).toFixed(0).padStart(6)}  ${Math.max(...warm).toFixed(0).padStart(5)}`);
    }
  } finally {
    await browser.close();
    await server?.stop();
    await database?.drop();
  }
}

await main();
