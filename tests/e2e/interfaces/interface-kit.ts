import type { Locator, Page } from 'playwright-core';
import { startAdmin, type AdminHarness } from '../harness.ts';

/** Sends as the administrator; any answer of 300 or more fails the test with its body. Answers `data`. */
export type Send = (method: 'get' | 'post' | 'patch', path: string, body?: unknown) => Promise<any>;

/** The admin harness of an interface test (`env`: more configuration), and a way to set its data up through the API as the administrator. */
export async function startSignedInAdmin(env: Record<string, string> = {}): Promise<{ harness: AdminHarness; token: string; send: Send }> {
  const harness = await startAdmin(env);
  const token = await harness.app.login();
  const send: Send = async (method, path, body) => {
    const response = await harness.app.request[method](path).set('Authorization', `Bearer ${token}`).send(body as object);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  return { harness, token, send };
}

/**
 * Waits until the page's finite animations have finished: a drawer or modal sliding in moves the selects in
 * it, and a list opened meanwhile moves under the click (it then lands outside and picks nothing). Endless
 * ones (spinners) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity).map((animation) => animation.finished.catch(() => undefined))));
}

/**
 * The open list of an antd select (a locator holding its combobox), found by the list its combobox controls:
 * the list of the select used before may still be fading out, with an option of the same title.
 */
export async function dropdownOf(page: Page, select: Locator): Promise<Locator> {
  const list = await select.getByRole('combobox').getAttribute('aria-controls');
  return list ? page.locator(`.ant-select-dropdown:has([id="${list}"])`) : page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
}

/** The title a single select shows as its value ('' when none), or null for a multiple one (whose picks toggle). */
async function shownTitle(select: Locator): Promise<string | null> {
  return select.evaluate((element) => {
    const root = element.closest('.ant-select') ?? element.querySelector('.ant-select');
    if (!root || root.classList.contains('ant-select-multiple')) return null;
    return root.querySelector('.ant-select-selection-item')?.getAttribute('title') ?? '';
  });
}

/**
 * Picks `option` (by its title) in the select with this test id. In a drawer still sliding in, the list can
 * move between the press and the release of the click (measured: ~40 ms), which then lands outside it and
 * picks nothing: once the list has closed, a single select still showing another value is picked again.
 * A select that shows nothing after a pick (one that adds, like the many-to-any collection picker) is left.
 */
export async function chooseOption(page: Page, testId: string, option: string): Promise<void> {
  const select = page.getByTestId(testId);
  for (let attempt = 1; ; attempt += 1) {
    await animationsDone(page);
    await select.click();
    const dropdown = await dropdownOf(page, select);
    // The list slides in too: a click while it moves can land beside the option and leave the list open.
    await animationsDone(page);
    await dropdown.getByTitle(option, { exact: true }).click();
    // A multiple select keeps its list open and toggles: nothing to check.
    if (attempt === 3 || (await shownTitle(select)) === null) return;
    await dropdown.waitFor({ state: 'hidden' });
    const shown = await shownTitle(select);
    if (shown === '' || shown === option) return;
  }
}
