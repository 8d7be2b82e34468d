import { describe, expect, it } from 'vitest';
import { fillReportUrl, isSafeLink, normalizeModuleBar, restorablePage, themeTokens } from '../../../admin/src/app/shell/shell-rules.ts';
import { moduleBarIssues, settingsIssues, themeOverridesIssue, toSettingsPayload } from '../../../admin/src/modules/settings/settings-rules.ts';

const MODULES = ['files', 'users', 'settings'];

describe('module bar', () => {
  it('is every module, enabled, in the app order when unset or invalid', () => {
    const all = MODULES.map((id) => ({ type: 'module', id, enabled: true }));
    expect(normalizeModuleBar(null, MODULES)).toEqual(all);
    expect(normalizeModuleBar({ not: 'a list' }, MODULES)).toEqual(all);
  });

  it('keeps the stored order and switches, drops unknown modules and bad links, appends modules it does not name', () => {
    const bar = normalizeModuleBar(
      [
        { type: 'module', id: 'settings', enabled: true },
        { type: 'link', id: 'docs', name: 'Docs', icon: 'book', url: 'https://docs.example', enabled: true },
        { type: 'module', id: 'insights', enabled: true },
        { type: 'module', id: 'files', enabled: false },
        { type: 'link', id: 'broken', name: 'No URL', enabled: true },
        { type: 'module', id: 'settings', enabled: false },
      ],
      MODULES,
    );
    expect(bar).toEqual([
      { type: 'module', id: 'settings', enabled: true },
      { type: 'link', id: 'docs', name: 'Docs', icon: 'book', url: 'https://docs.example', enabled: true },
      { type: 'module', id: 'files', enabled: false },
      { type: 'module', id: 'users', enabled: true },
    ]);
  });

  it('opens only http(s) and relative links', () => {
    expect(isSafeLink('https://example.com')).toBe(true);
    expect(isSafeLink('/admin/files')).toBe(true);
    expect(isSafeLink('javascript:alert(1)')).toBe(false);
    expect(isSafeLink('//evil.example')).toBe(true);
  });

  it('checks links in the settings form and saves the Directus shape', () => {
    expect(moduleBarIssues({ type: 'link', id: 'x', name: '', url: 'ftp://x' }, 2)).toEqual([
      { index: 2, field: 'name', message: 'settings.rules.required' },
      { index: 2, field: 'url', message: 'settings.rules.linkUrl' },
    ]);
    expect(moduleBarIssues({ type: 'module', id: 'files', enabled: false }, 0)).toEqual([]);
    const payload = toSettingsPayload({ module_bar: [{ type: 'module', id: 'files', enabled: false }, { type: 'link', id: 'docs', name: 'Docs', url: ' https://docs.example ', enabled: true }] });
    expect(payload.module_bar).toEqual([
      { type: 'module', id: 'files', enabled: false },
      { type: 'link', id: 'docs', name: 'Docs', icon: 'link', url: 'https://docs.example', enabled: true },
    ]);
  });
});

describe('report links', () => {
  it('fills {{ placeholders }} URL-encoded; unknown ones become empty', () => {
    expect(fillReportUrl('https://x.example/new?title={{ error }}&page={{route}}&v={{ version }}', { error: 'TypeError: a & b', route: '/content/posts' })).toBe(
      'https://x.example/new?title=TypeError%3A%20a%20%26%20b&page=%2Fcontent%2Fposts&v=',
    );
  });
});

describe('theme overrides', () => {
  it('keeps flat antd tokens (strings, finite numbers) and ignores the rest', () => {
    expect(themeTokens({ colorPrimary: '#0B7A75', borderRadius: 2, nested: { a: 1 }, 'bad-key': 'x', fontSize: Number.NaN, list: [1] })).toEqual({ colorPrimary: '#0B7A75', borderRadius: 2 });
    expect(themeTokens(null)).toEqual({});
    expect(themeTokens(['colorPrimary'])).toEqual({});
  });

  it('must be an object in the settings form', () => {
    expect(themeOverridesIssue(null)).toBeNull();
    expect(themeOverridesIssue({ colorPrimary: '#000000' })).toBeNull();
    expect(themeOverridesIssue([1])).toBe('settings.rules.tokens');
    expect(themeOverridesIssue('blue')).toBe('settings.rules.tokens');
    expect(settingsIssues({ project_name: 'x', project_color: '#000000', theme_dark_overrides: 'blue' })).toEqual([{ name: ['theme_dark_overrides'], message: 'settings.rules.tokens' }]);
  });
});

describe('last page', () => {
  it('restores a page of the app, never the root, the sign-in page or another origin', () => {
    expect(restorablePage('/content/posts/3')).toBe('/content/posts/3');
    expect(restorablePage('/')).toBeNull();
    expect(restorablePage('/login')).toBeNull();
    expect(restorablePage('//evil.example/x')).toBeNull();
    expect(restorablePage('https://evil.example')).toBeNull();
    expect(restorablePage(null)).toBeNull();
  });
});
