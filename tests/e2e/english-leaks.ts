import antdEnUS from 'antd/lib/locale/en_US.js';
import antdPtBR from 'antd/lib/locale/pt_BR.js';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { enUS } from '../../admin/src/i18n/en-US.ts';
import { ptBR } from '../../admin/src/i18n/pt-BR.ts';
import { pluralForms } from '../../admin/src/i18n/plural.ts';
import { activityMessages } from '../../admin/src/modules/activity/messages.ts';
import { dataModelMessages } from '../../admin/src/modules/data-model/messages.ts';
import { extensionsMessages } from '../../admin/src/modules/extensions/messages.ts';
import { filesMessages } from '../../admin/src/modules/files/messages.ts';
import { flowsMessages } from '../../admin/src/modules/flows/messages.ts';
import { insightsMessages } from '../../admin/src/modules/insights/messages.ts';
import { rolesMessages } from '../../admin/src/modules/roles/messages.ts';
import { settingsMessages } from '../../admin/src/modules/settings/messages.ts';
import { shareMessages } from '../../admin/src/content/items/share-messages.ts';
import { sharedMessages } from '../../admin/src/modules/shared/messages.ts';
import { usersMessages } from '../../admin/src/modules/users/messages.ts';
import { webhooksMessages } from '../../admin/src/modules/webhooks/messages.ts';

/**
 * English a pt-BR screen must not show: every built-in text of the admin (app and modules) and of antd
 * whose Portuguese differs, plus names the system writes itself. Seeded data in the tests is Portuguese,
 * so a match is interface text, never user data.
 */

function flatten(value: unknown, prefix = '', into: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value === 'string') into.set(prefix, value);
  else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

function englishTexts(): string[] {
  const pairs: Array<[Record<string, string>, Record<string, string>]> = [[enUS, ptBR], ...[activityMessages, dataModelMessages, filesMessages, rolesMessages, settingsMessages, sharedMessages, usersMessages, webhooksMessages, flowsMessages, insightsMessages, extensionsMessages, shareMessages].map((messages) => [messages['en-US'], messages['pt-BR']] as [Record<string, string>, Record<string, string>])];
  const texts = new Set<string>();
  // A plural text is looked for in each of its forms (`# item`, `# items`).
  for (const [english, portuguese] of pairs) for (const [key, text] of Object.entries(english)) if (portuguese[key] !== text) for (const form of pluralForms(text)) if (!pluralForms(portuguese[key] ?? '').includes(form)) texts.add(form);
  const antdEnglish = flatten((antdEnUS as { default?: unknown }).default ?? antdEnUS);
  const antdPortuguese = flatten((antdPtBR as { default?: unknown }).default ?? antdPtBR);
  for (const [key, text] of antdEnglish) if (key !== 'locale' && antdPortuguese.get(key) !== text) texts.add(text);
  // Written by the system, not in any catalogue: collection names in title case, the seeded role.
  for (const text of ['Tessera Users', 'Tessera Roles', 'Tessera Files', 'Tessera Settings', 'Administrator', 'Full access to every collection and setting.']) texts.add(text);
  return [...texts].filter((text) => text.trim().length > 1);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `Delete {{count}} items?` → a pattern a whole visible text must match; placeholders match anything. */
const PATTERNS = englishTexts().map((text) => ({ text, pattern: new RegExp(`^${escape(text.trim()).replace(/\\\{\\\{\s*\w+\s*\\\}\\\}|\\\$\\\{\w+\\\}/g, '.+?')}$`) }));

/** The English texts visible on the page now (whole text nodes, placeholders and button values), with where. */
export async function englishLeaks(page: Page): Promise<string[]> {
  const visible = (await page.evaluate(`(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      const parent = node.parentElement;
      // A text area's content is the data being edited, not interface text.
      if (text && parent && parent.tagName !== 'TEXTAREA' && parent.checkVisibility({ visibilityProperty: true })) out.push(text);
    }
    for (const element of document.querySelectorAll('[placeholder]')) if (element.checkVisibility()) out.push(element.getAttribute('placeholder').trim());
    return out;
  })()`)) as string[];
  const leaks = new Set<string>();
  for (const text of visible) {
    const match = PATTERNS.find((entry) => entry.pattern.test(text));
    if (match) leaks.add(text === match.text ? text : `${text} (${match.text})`);
  }
  return [...leaks];
}

/**
 * Waits until the page shows no English: a screen still drawing under load (a panel, a list, a drawer
 * settling) may pass through a state the finished screen does not have, and only the finished screen is
 * judged. Fails with the English still visible when it never settles.
 */
export async function expectNoEnglish(page: Page): Promise<void> {
  await expect.poll(() => englishLeaks(page)).toEqual([]);
}
