/**
 * Pure rules behind the project settings the signed-in frame honours: the module bar, the report links
 * and the theme overrides (docs/admin.md, "Settings the admin honours").
 */

/** One entry of `settings.module_bar` (Directus's shape). */
export type ModuleBarEntry =
  | { type: 'module'; id: string; enabled: boolean }
  | { type: 'link'; id: string; name: string; icon?: string; url: string; enabled: boolean };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The module bar to show: the stored entries in their order (unknown modules and malformed entries
 * dropped), then any module the stored bar does not name, enabled (a module added after the bar was saved
 * still shows). `null` or an invalid value: every module, in the app's order.
 */
export function normalizeModuleBar(value: unknown, moduleIds: readonly string[]): ModuleBarEntry[] {
  const entries: ModuleBarEntry[] = [];
  const seen = new Set<string>();
  for (const raw of Array.isArray(value) ? value : []) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || seen.has(raw.id)) continue;
    const enabled = raw.enabled !== false;
    if (raw.type === 'module' && moduleIds.includes(raw.id)) {
      entries.push({ type: 'module', id: raw.id, enabled });
      seen.add(raw.id);
    } else if (raw.type === 'link' && typeof raw.url === 'string' && raw.url !== '') {
      entries.push({ type: 'link', id: raw.id, name: typeof raw.name === 'string' && raw.name !== '' ? raw.name : raw.url, icon: typeof raw.icon === 'string' ? raw.icon : undefined, url: raw.url, enabled });
      seen.add(raw.id);
    }
  }
  for (const id of moduleIds) if (!seen.has(id)) entries.push({ type: 'module', id, enabled: true });
  return entries;
}

/** Only `http(s):` and relative links open from the menu (a `javascript:` URL never does). */
export function isSafeLink(url: string): boolean {
  return /^(https?:\/\/|\/)/i.test(url.trim());
}

/**
 * A report URL with its `{{ name }}` placeholders filled (URL-encoded); unknown placeholders become empty.
 * Directus's placeholders: `{{ error }}`, `{{ route }}`, `{{ project }}`, `{{ version }}`.
 */
export function fillReportUrl(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{\{\s*([a-zA-Z_][\w.]*)\s*\}\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/**
 * Theme overrides as antd design tokens: a flat object of token names (`colorPrimary`, `borderRadius`,
 * `fontFamily` …) to strings or numbers. Anything else (nested objects, arrays, odd keys) is ignored.
 */
export function themeTokens(value: unknown): Record<string, string | number> {
  const tokens: Record<string, string | number> = {};
  if (!isRecord(value)) return tokens;
  for (const [key, token] of Object.entries(value)) {
    if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(key)) continue;
    if (typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token))) tokens[key] = token;
  }
  return tokens;
}

/** The path the app should open after sign-in: the user's last page when it is a page of the app. */
export function restorablePage(lastPage: string | null | undefined): string | null {
  if (!lastPage || !lastPage.startsWith('/') || lastPage.startsWith('//')) return null;
  if (lastPage === '/' || lastPage.startsWith('/login')) return null;
  return lastPage;
}
