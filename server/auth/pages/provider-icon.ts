import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SafeHtml } from './html.ts';

/**
 * The antd outlined icon (the admin's icon set) of the names providers are usually configured with
 * (AUTH_<NAME>_ICON), as the admin's sign-in card picks them; any other name gets the sign-in arrow.
 */
const ICON_FILES: Record<string, string> = {
  github: 'github',
  gitlab: 'gitlab',
  google: 'google',
  apple: 'apple',
  microsoft: 'windows',
  windows: 'windows',
  key: 'key',
  vpn_key: 'key',
  lock: 'lock',
  lan: 'cluster',
  ldap: 'cluster',
  account_tree: 'cluster',
  verified_user: 'safety-certificate',
  security: 'safety-certificate',
};

const folder = path.join(path.dirname(createRequire(import.meta.url).resolve('@ant-design/icons-svg/package.json')), 'inline-svg', 'outlined');
const loaded = new Map<string, SafeHtml>();

/** An inline SVG for the provider's configured icon name, hidden from screen readers (the label says it). */
export function providerIcon(name: string | null | undefined): SafeHtml {
  const file = ICON_FILES[(name ?? '').toLowerCase()] ?? 'login';
  let icon = loaded.get(file);
  if (!icon) {
    // Files of a package we depend on, named by our own table: never a configured string in a path.
    const svg = readFileSync(path.join(folder, `${file}.svg`), 'utf8').replace('<svg ', '<svg class="icon" width="1em" height="1em" fill="currentColor" aria-hidden="true" ');
    loaded.set(file, (icon = new SafeHtml(svg)));
  }
  return icon;
}
