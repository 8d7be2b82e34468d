import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { attachRealtime, type RealtimeServer } from '../../server/realtime/realtime-server.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../helpers/test-app.ts';

/**
 * Debian's Chromium headless shell (.ci/run installs it): the old headless mode, a fifth faster here than the
 * full browser in its new headless mode (docs/testing.md). CHROMIUM_PATH points elsewhere (e.g. /usr/bin/chromium).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Whether `screenshot()` captures: TEST_SCREENSHOTS=1 for reviewing the screens by eye. Off by default, since
 * no test reads them and each capture re-lays the page out at full height and encodes a PNG (docs/testing.md).
 */
const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1';
/** Where `screenshot()` writes (git-ignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * A 4xx answer is how the API reports a refused or invalid request (a validation error the test provokes,
 * an expired session); Chromium logs each as "Failed to load resource". Those are expected. Anything else
 * on the console (5xx answers, exceptions, React errors) fails the test.
 */
const EXPECTED_CONSOLE = [/^Failed to load resource: the server responded with a status of 4\d\d/];

/** A real Tessera on a free port with its own PostgreSQL database, the built admin, and a Chromium. */
export interface AdminHarness {
  /** `http://127.0.0.1:<port>` (the admin is at `${baseUrl}/admin/`). */
  baseUrl: string;
  /** The test app behind the server: seed through `app.system` services or `app.request`. */
  app: TestApp;
  /** This harness's temporary DATA_DIR (uploads, outbox), removed by close(). */
  dataDir: string;
  /** A fresh browser context and page, asking for reduced motion unless told otherwise; console errors and page errors fail the running test. */
  newPage(options?: { reducedMotion?: 'reduce' | 'no-preference' }): Promise<Page>;
  /** Signs in (default: the test administrator) as the sign-in page does, opens the app's root and waits for it. */
  signIn(page: Page, email?: string, password?: string): Promise<void>;
  /** With TEST_SCREENSHOTS=1, saves a full-page screenshot to tests/e2e/screenshots/<name>.png and answers its path; else nothing (null). */
  screenshot(page: Page, name: string): Promise<string | null>;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (to know the server's address before it starts, e.g. for OpenID redirect URIs). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function serve(app: TestApp, port: number): Promise<Server> {
  const server = createServer(app.app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Starts the server and the browser; `env` adds configuration variables (AUTH_PROVIDERS …), `port` fixes the server's port. */
export async function startAdmin(env: Record<string, string> = {}, port?: number): Promise<AdminHarness> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium-headless-shell (or set CHROMIUM_PATH)`);
  port ??= await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Uploads, transforms and the mail outbox go to a folder of this run, never the repository's ./data.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-e2e-'));
  const app = await createTestApp({ PUBLIC_URL: baseUrl, DATA_DIR: dataDir, ...env });
  const server = await serve(app, port);
  // /websocket as `tessera start` serves it: the admin's collaborative editing connects to it.
  const realtime: RealtimeServer | null = app.context.config.realtime.enabled ? attachRealtime(server, app.context) : null;
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  const contexts: BrowserContext[] = [];
  const leftover: string[] = [];

  return {
    baseUrl,
    app,
    dataDir,
    async newPage(options: { reducedMotion?: 'reduce' | 'no-preference' } = {}) {
      // Reduced motion (the admin then turns antd's animations off): a step never meets a pop-up still
      // sliding in, and a 2-core machine draws far fewer frames. reduced-motion.test.ts checks both settings.
      const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, baseURL: baseUrl, locale: 'en-US', colorScheme: 'light', reducedMotion: options.reducedMotion ?? 'reduce' });
      contexts.push(context);
      // Tests never reach the internet: a third-party page (an OpenID provider's development login links a
      // web font) gets an empty answer for anything not on this machine, instead of a DNS failure.
      await context.route((url) => !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.fulfill({ status: 200, body: '' }));
      const page = await context.newPage();
      // A safety net, not a speed target: every step waits for a condition, and on a 2-core machine running
      // other suites a page load alone took over 15 s.
      page.setDefaultTimeout(60_000);
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        if (EXPECTED_CONSOLE.some((pattern) => pattern.test(text))) return;
        problems.push(`console error: ${text}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      try {
        onTestFinished(() => {
          if (problems.length > 0) throw new Error(`The browser reported errors:\n${problems.join('\n')}`);
        });
      } catch {
        // Outside a test (beforeAll): report at close instead.
        page.on('close', () => leftover.push(...problems));
      }
      return page;
    },
    async signIn(page, email = TEST_ADMIN.email, password = TEST_ADMIN.password) {
      // The sign-in page's own request (session mode: the cookie lands in the page's context), then the app's
      // root, where the page sends a signed-in user: one page load instead of two. The page itself is driven
      // by sign-in.test.ts and sign-in-methods.test.ts.
      const response = await page.request.post('/auth/login', { data: { email, password, mode: 'session' } });
      if (!response.ok()) throw new Error(`signing in as ${email}: ${response.status()} ${await response.text()}`);
      await page.goto('/admin/');
      await page.getByTestId('user-menu').waitFor();
      // The app still reads the user's preferences (language, appearance) as the menu shows: a choice made
      // before those answers arrive was overwritten by them (languages-and-access, once). Wait for them.
      await page.waitForLoadState('networkidle');
    },
    async screenshot(page, name) {
      if (!SCREENSHOTS) return null;
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      // Let loading states settle (a table still fetching is drawn dimmed under a spinner).
      await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
      // The whole page as a window that tall would show it: a full-page capture of a scrolled page draws
      // the sticky header and the 100vh sider where they happen to be, which looks like a broken layout.
      const viewport = page.viewportSize();
      const height = await page.evaluate('document.documentElement.scrollHeight') as number;
      if (viewport && height > viewport.height) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 4000) });
      await page.screenshot({ path: file, animations: 'disabled' });
      if (viewport && height > viewport.height) await page.setViewportSize(viewport);
      return file;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await realtime?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
      if (leftover.length > 0) throw new Error(`The browser reported errors:\n${leftover.join('\n')}`);
    },
  };
}

/** The methods `callApi` sends. */
export type ApiMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * Calls the harness's API as `token` and answers the body's `data`; an error status throws with the body,
 * so seeding and checks in browser tests fail where they go wrong.
 */
export async function callApi(harness: AdminHarness, token: string, method: ApiMethod, path: string, body?: object): Promise<any> {
  const response = await harness.app.request[method](path).set('Authorization', `Bearer ${token}`).send(body);
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body?.data;
}
