import { describe, expect, it } from 'vitest';
import {
  ASSET_FITS,
  ASSET_FORMATS,
  BASEMAP_TYPES,
  PASSWORD_POLICIES,
  QUALITY,
  aspectRatioIssues,
  assetPresetsIssues,
  basemapIssues,
  colourIssue,
  loginAttemptsIssue,
  parseEmailFilter,
  parseTransforms,
  settingsIssues,
  showsTileSize,
  toSettingsFormValues,
  toSettingsPayload,
} from '../../../../admin/src/modules/settings/settings-rules.ts';
import * as constants from '../../../../server/schema/system/constants.ts';

describe('settings rules match the server constants (SPEC §9)', () => {
  it('uses the same enumerations and quality range', () => {
    expect(ASSET_FITS).toEqual(constants.ASSET_FITS);
    expect(ASSET_FORMATS).toEqual(constants.ASSET_FORMATS);
    expect(BASEMAP_TYPES).toEqual(constants.BASEMAP_TYPES);
    expect(PASSWORD_POLICIES).toEqual(constants.PASSWORD_POLICY_NAMES);
    expect(QUALITY).toEqual(constants.ASSET_PRESET_QUALITY);
  });
});

describe('asset presets (SPEC §5)', () => {
  const good = { key: 'thumb-200', fit: 'cover' as const, width: 200, height: 200, quality: 80 };

  it('accepts a complete preset', () => {
    expect(assetPresetsIssues([good])).toEqual([]);
  });

  it('requires a slug-like key and non-null fit, width, height and quality', () => {
    expect(assetPresetsIssues([{}]).map((issue) => [issue.field, issue.message])).toEqual([
      ['key', 'settings.rules.required'], ['fit', 'settings.rules.required'], ['width', 'settings.rules.required'],
      ['height', 'settings.rules.required'], ['quality', 'settings.rules.required'],
    ]);
    expect(assetPresetsIssues([{ ...good, key: 'Thumb 200' }])).toEqual([{ index: 0, field: 'key', message: 'settings.rules.slug' }]);
  });

  it('checks ranges, enumerations, duplicates', () => {
    expect(assetPresetsIssues([{ ...good, quality: 101 }])[0]!.message).toBe('settings.rules.quality');
    expect(assetPresetsIssues([{ ...good, quality: 0, width: 0 }])).toEqual([{ index: 0, field: 'width', message: 'settings.rules.positiveInteger' }]);
    expect(assetPresetsIssues([{ ...good, fit: 'stretch' as never }])[0]!.field).toBe('fit');
    expect(assetPresetsIssues([{ ...good, format: 'gif' as never }])[0]!.field).toBe('format');
    expect(assetPresetsIssues([good, good])).toEqual([{ index: 1, field: 'key', message: 'settings.rules.duplicateKey' }]);
  });

  it('reads transforms as a list of [operation, ...arguments]', () => {
    expect(parseTransforms('[["blur", 4], ["rotate", 90]]')).toEqual({ ok: true, value: [['blur', 4], ['rotate', 90]] });
    expect(parseTransforms('')).toEqual({ ok: true, value: null });
    expect(parseTransforms('{"blur":4}')).toEqual({ ok: false });
    expect(parseTransforms('[[4]]')).toEqual({ ok: false });
  });
});

describe('basemaps, aspect ratios, login attempts, colour', () => {
  it('requires basemap name and url; tileSize only matters off raster', () => {
    expect(basemapIssues({ type: 'raster' }, 2).map((issue) => issue.field)).toEqual(['name', 'url']);
    expect(basemapIssues({ name: 'OSM', url: 'https://tile/{z}/{x}/{y}.png', type: 'tile', tileSize: -1 }, 0)).toEqual([{ index: 0, field: 'tileSize', message: 'settings.rules.positiveInteger' }]);
    expect(basemapIssues({ name: 'OSM', url: 'u', type: 'raster', tileSize: -1 }, 0)).toEqual([]);
    expect(showsTileSize('raster')).toBe(false);
    expect(showsTileSize('style')).toBe(true);
  });

  it('requires aspect ratio text and a positive value', () => {
    expect(aspectRatioIssues({ text: '16:9', value: 16 / 9 }, 0)).toEqual([]);
    expect(aspectRatioIssues({ text: '', value: 0 }, 1).map((issue) => [issue.field, issue.message])).toEqual([['text', 'settings.rules.required'], ['value', 'settings.rules.positiveNumber']]);
  });

  it('leaves login attempts blank for unlimited, else a positive integer', () => {
    expect(loginAttemptsIssue(null)).toBeNull();
    expect(loginAttemptsIssue(25)).toBeNull();
    expect(loginAttemptsIssue(0)).toBe('settings.rules.positiveInteger');
    expect(loginAttemptsIssue(2.5)).toBe('settings.rules.positiveInteger');
  });

  it('takes #RRGGBB colours', () => {
    expect(colourIssue('#6644FF')).toBeNull();
    expect(colourIssue('red')).toBe('settings.rules.colour');
    expect(colourIssue('')).toBe('settings.rules.required');
  });
});

describe('settings payload', () => {
  it('turns blanks into null, fills the default quality and drops tileSize for raster', () => {
    const payload = toSettingsPayload({
      project_name: 'Acme', project_color: '#112233', project_logo: '', auth_login_attempts: null, custom_css: '  ',
      storage_asset_presets: [{ key: 'thumb', fit: 'cover', width: 10, height: 10, transforms: '[["blur",1]]' }],
      basemaps: [{ name: 'OSM', type: 'raster', url: 'u', tileSize: 512 }, { name: 'Vector', type: 'style', url: 'v', tileSize: 256 }],
      custom_aspect_ratios: [],
    });
    expect(payload).toMatchObject({
      project_name: 'Acme', project_logo: null, auth_login_attempts: null, custom_css: null, custom_aspect_ratios: null,
      storage_asset_presets: [{ key: 'thumb', fit: 'cover', width: 10, height: 10, quality: 80, withoutEnlargement: false, format: null, transforms: [['blur', 1]] }],
      basemaps: [{ name: 'OSM', type: 'raster', url: 'u', attribution: null }, { name: 'Vector', type: 'style', url: 'v', tileSize: 256, attribution: null }],
    });
    expect((payload.basemaps as object[])[0]).not.toHaveProperty('tileSize');
  });

  it('reads stored settings back into the form', () => {
    const values = toSettingsFormValues({ project_name: 'Acme', project_logo: { id: 'f1' }, storage_asset_presets: [{ key: 'k', transforms: [['blur', 1]] }], basemaps: null });
    expect(values).toMatchObject({ project_logo: 'f1', storage_asset_presets: [{ key: 'k', transforms: '[["blur",1]]' }], basemaps: [], custom_aspect_ratios: [] });
  });
});

describe('the whole settings form', () => {
  it('names every problem by its form path', () => {
    const issues = settingsIssues({
      project_name: ' ', project_color: 'blue', auth_login_attempts: -1,
      storage_asset_presets: [{ key: 'ok', fit: 'cover', width: 1, height: 1, quality: 80, transforms: 'nope' }],
      basemaps: [{ type: 'tile' }],
      custom_aspect_ratios: [{ text: '1:1', value: 1 }],
    });
    expect(issues).toEqual([
      { name: ['project_name'], message: 'settings.rules.required' },
      { name: ['project_color'], message: 'settings.rules.colour' },
      { name: ['auth_login_attempts'], message: 'settings.rules.positiveInteger' },
      { name: ['storage_asset_presets', 0, 'transforms'], message: 'settings.rules.transforms' },
      { name: ['basemaps', 0, 'name'], message: 'settings.rules.required' },
      { name: ['basemaps', 0, 'url'], message: 'settings.rules.required' },
    ]);
    expect(settingsIssues({ project_name: 'Acme', project_color: '#123456' })).toEqual([]);
  });
});

// Issue 31, item 10: the public registration settings.
describe('registration settings', () => {
  it('sends the e-mail filter as an object (blank: null) and refuses text that is not a JSON object', () => {
    expect(parseEmailFilter('')).toEqual({ ok: true, value: null });
    expect(parseEmailFilter('{ "email": { "_ends_with": "@example.com" } }')).toEqual({ ok: true, value: { email: { _ends_with: '@example.com' } } });
    expect(parseEmailFilter('[1]')).toEqual({ ok: false });
    expect(parseEmailFilter('{ email')).toEqual({ ok: false });
    const payload = toSettingsPayload({ project_name: 'Acme', public_registration: true, public_registration_role: '', public_registration_email_filter: '{"email":{"_contains":"@"}}' });
    expect(payload).toMatchObject({ public_registration: true, public_registration_verify_email: true, public_registration_role: null, public_registration_email_filter: { email: { _contains: '@' } } });
    expect(toSettingsFormValues({ public_registration_email_filter: { email: { _eq: 'a@b.c' } } }).public_registration_email_filter).toBe('{"email":{"_eq":"a@b.c"}}');
    expect(settingsIssues({ project_name: 'Acme', project_color: '#112233', public_registration_email_filter: 'nope' })).toEqual([{ name: ['public_registration_email_filter'], message: 'settings.rules.emailFilter' }]);
  });
});
