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

/** What an antd select shows as picked: the titles of its items, and whether it is a multiple one (whose picks toggle). */
async function shownTitles(select: Locator): Promise<{ multiple: boolean; titles: string[] }> {
  return select.evaluate((element) => {
    const root = element.closest('.ant-select') ?? element.querySelector('.ant-select');
    const titles = [...(root?.querySelectorAll('.ant-select-selection-item') ?? [])].map((item) => item.getAttribute('title') ?? '');
    return { multiple: Boolean(root?.classList.contains('ant-select-multiple')), titles };
  });
}

/** Whether an option of a multiple select's list is marked picked (a tag drawn without a title shows no name). */
async function markedPicked(choice: Locator): Promise<boolean> {
  return (await choice.count()) > 0 && choice.first().evaluate((element) => element.classList.contains('ant-select-item-option-selected'));
}

/**
 * Picks `option` (by its title) in an antd select; `search` types it first (long lists render only the
 * options in view). In a drawer still sliding in, the list can move between the press and the release of the
 * click (measured: ~40 ms), which then lands outside it and picks nothing, so the pick is checked and made
 * again: a multiple select must show the option or mark it picked in its list (which stays open: the next
 * try clicks in it again); a single one, once its list has closed, must show the option or nothing (a select that adds,
 * like the many-to-any collection picker, shows nothing after a pick).
 */
export async function pickOption(page: Page, select: Locator, option: string, search = false): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await animationsDone(page);
    if ((await select.getByRole('combobox').getAttribute('aria-expanded')) !== 'true') {
      await select.click();
      if (search) await page.keyboard.type(option);
    }
    const choice = (await dropdownOf(page, select)).getByTitle(option, { exact: true });
    await choice.waitFor();
    // The list slides in too: a click while it moves can land beside the option and leave the list open.
    await animationsDone(page);
    await choice.click();
    const shown = await shownTitles(select);
    if (shown.multiple) {
      if (attempt === 3 || shown.titles.includes(option) || (await markedPicked(choice))) return;
      continue;
    }
    if (attempt === 3) return;
    await (await dropdownOf(page, select)).waitFor({ state: 'hidden' });
    const [title = ''] = (await shownTitles(select)).titles;
    if (title === '' || title === option) return;
  }
}

/** Picks `option` (by its title) in the select with this test id (see pickOption). */
export async function chooseOption(page: Page, testId: string, option: string): Promise<void> {
  await pickOption(page, page.getByTestId(testId), option);
}
