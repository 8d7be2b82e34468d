/**
 * Settings rules the form checks before saving (SPEC.md §5, §9): asset presets, basemaps, custom aspect
 * ratios, password policy, login attempts, colour. Each check answers a message key or null, so the
 * screen translates it; `toSettingsPayload` builds the PATCH /settings body. Pure logic.
 */

/** Password policies (SPEC §9). */
export const PASSWORD_POLICIES = ['none', 'weak', 'strong'] as const;
/** Asset transformations (SPEC §9). */
export const ASSET_TRANSFORMS = ['all', 'none', 'presets'] as const;
/** Asset preset fits (SPEC §9). */
export const ASSET_FITS = ['contain', 'cover', 'inside', 'outside'] as const;
/** Asset preset formats (SPEC §9). */
export const ASSET_FORMATS = ['auto', 'jpeg', 'png', 'webp', 'tiff', 'avif'] as const;
/** Basemap types (SPEC §9). */
export const BASEMAP_TYPES = ['raster', 'tile', 'style'] as const;
/** Asset preset quality: default and range (SPEC §9). */
export const QUALITY = { default: 80, min: 0, max: 100, step: 1 } as const;
/** Interface languages the admin ships. */
export const LANGUAGES = ['en-US', 'pt-BR'] as const;

/** A slug: lowercase letters, digits, hyphens and underscores, starting with a letter or digit. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** An asset preset (SPEC §3 "Asset preset fields"). */
export interface AssetPreset {
  key: string;
  fit: (typeof ASSET_FITS)[number];
  width: number;
  height: number;
  quality: number;
  withoutEnlargement?: boolean;
  format?: (typeof ASSET_FORMATS)[number] | null;
  transforms?: unknown[] | null;
}

/** A basemap (SPEC §3). */
export interface Basemap {
  name: string;
  type: (typeof BASEMAP_TYPES)[number];
  url: string;
  tileSize?: number | null;
  attribution?: string | null;
}

/** A custom aspect ratio (SPEC §3: text, value as float). */
export interface AspectRatio {
  text: string;
  value: number;
}

/** A problem in a list entry: which entry, which field, which message key. */
export interface Issue {
  index: number;
  field: string;
  message: string;
}

const isBlank = (value: unknown): boolean => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** Checks one asset preset: key required and slug-like; fit, width, height and quality non-null; enumerations. */
export function assetPresetIssues(preset: Partial<AssetPreset>, index: number): Issue[] {
  const issues: Issue[] = [];
  const add = (field: string, message: string) => issues.push({ index, field, message });
  if (isBlank(preset.key)) add('key', 'settings.rules.required');
  else if (!SLUG_PATTERN.test(String(preset.key))) add('key', 'settings.rules.slug');
  if (isBlank(preset.fit)) add('fit', 'settings.rules.required');
  else if (!(ASSET_FITS as readonly string[]).includes(String(preset.fit))) add('fit', 'settings.rules.oneOf');
  for (const side of ['width', 'height'] as const) {
    const value = preset[side];
    if (isBlank(value)) add(side, 'settings.rules.required');
    else if (!isInteger(value) || value < 1) add(side, 'settings.rules.positiveInteger');
  }
  if (isBlank(preset.quality)) add('quality', 'settings.rules.required');
  else if (!isInteger(preset.quality) || preset.quality < QUALITY.min || preset.quality > QUALITY.max) add('quality', 'settings.rules.quality');
  if (!isBlank(preset.format) && !(ASSET_FORMATS as readonly string[]).includes(String(preset.format))) add('format', 'settings.rules.oneOf');
  if (!isBlank(preset.transforms) && !Array.isArray(preset.transforms)) add('transforms', 'settings.rules.transforms');
  return issues;
}

/** Checks every preset, and that keys are unique. */
export function assetPresetsIssues(presets: ReadonlyArray<Partial<AssetPreset>>): Issue[] {
  const issues = presets.flatMap((preset, index) => assetPresetIssues(preset, index));
  const seen = new Set<string>();
  presets.forEach((preset, index) => {
    if (isBlank(preset.key)) return;
    if (seen.has(String(preset.key))) issues.push({ index, field: 'key', message: 'settings.rules.duplicateKey' });
    seen.add(String(preset.key));
  });
  return issues;
}

/** Checks one basemap: name and url required, type from the list, tileSize a positive integer when set. */
export function basemapIssues(basemap: Partial<Basemap>, index: number): Issue[] {
  const issues: Issue[] = [];
  const add = (field: string, message: string) => issues.push({ index, field, message });
  if (isBlank(basemap.name)) add('name', 'settings.rules.required');
  if (isBlank(basemap.url)) add('url', 'settings.rules.required');
  if (isBlank(basemap.type)) add('type', 'settings.rules.required');
  else if (!(BASEMAP_TYPES as readonly string[]).includes(String(basemap.type))) add('type', 'settings.rules.oneOf');
  if (basemap.type !== 'raster' && !isBlank(basemap.tileSize) && (!isInteger(basemap.tileSize) || basemap.tileSize < 1)) add('tileSize', 'settings.rules.positiveInteger');
  return issues;
}

/** tileSize is shown only when the type is not raster (SPEC §5). */
export function showsTileSize(type: string | null | undefined): boolean {
  return type !== 'raster';
}

/** Checks one aspect ratio: text required, value a positive number. */
export function aspectRatioIssues(ratio: Partial<AspectRatio>, index: number): Issue[] {
  const issues: Issue[] = [];
  if (isBlank(ratio.text)) issues.push({ index, field: 'text', message: 'settings.rules.required' });
  if (isBlank(ratio.value)) issues.push({ index, field: 'value', message: 'settings.rules.required' });
  else if (typeof ratio.value !== 'number' || !Number.isFinite(ratio.value) || ratio.value <= 0) issues.push({ index, field: 'value', message: 'settings.rules.positiveNumber' });
  return issues;
}

/** Login attempts: blank (unlimited) or a positive integer. */
export function loginAttemptsIssue(value: unknown): string | null {
  if (isBlank(value)) return null;
  return isInteger(value) && value >= 1 ? null : 'settings.rules.positiveInteger';
}

/** Project colour: a #RRGGBB hex colour. */
export function colourIssue(value: unknown): string | null {
  if (isBlank(value)) return 'settings.rules.required';
  return HEX_COLOUR.test(String(value)) ? null : 'settings.rules.colour';
}

/** What the settings form holds (presets' transforms as JSON text). */
export interface SettingsFormValues {
  project_name?: string;
  project_descriptor?: string | null;
  project_url?: string | null;
  project_color?: string;
  project_logo?: string | null;
  public_note?: string | null;
  default_language?: string;
  default_appearance?: string;
  auth_password_policy?: (typeof PASSWORD_POLICIES)[number];
  auth_login_attempts?: number | null;
  public_registration?: boolean;
  public_registration_verify_email?: boolean;
  public_registration_role?: string | null;
  /** The e-mail filter as JSON text. */
  public_registration_email_filter?: string | null;
  storage_asset_transform?: (typeof ASSET_TRANSFORMS)[number];
  storage_asset_presets?: Array<Partial<Omit<AssetPreset, 'transforms'>> & { transforms?: string | null }>;
  mapbox_key?: string | null;
  basemaps?: Array<Partial<Basemap>>;
  custom_aspect_ratios?: Array<Partial<AspectRatio>>;
  custom_css?: string | null;
  public_foreground?: string | null;
  public_background?: string | null;
  public_favicon?: string | null;
  report_bug_url?: string | null;
  report_feature_url?: string | null;
  report_error_url?: string | null;
  theme_light_overrides?: unknown;
  theme_dark_overrides?: unknown;
  module_bar?: Array<Partial<ModuleBarFormEntry>>;
}

/** A module bar entry as the editor holds it (Directus's module_bar shape). */
export interface ModuleBarFormEntry {
  type: 'module' | 'link';
  id: string;
  enabled: boolean;
  name?: string | null;
  icon?: string | null;
  url?: string | null;
}

/** A link of the module bar: name and an http(s) or relative URL. */
export function moduleBarIssues(entry: Partial<ModuleBarFormEntry>, index: number): Issue[] {
  if (entry.type !== 'link') return [];
  const issues: Issue[] = [];
  if (isBlank(entry.name)) issues.push({ index, field: 'name', message: 'settings.rules.required' });
  if (isBlank(entry.url)) issues.push({ index, field: 'url', message: 'settings.rules.required' });
  else if (!/^(https?:\/\/|\/)/i.test(String(entry.url).trim())) issues.push({ index, field: 'url', message: 'settings.rules.linkUrl' });
  return issues;
}

/** Theme overrides: blank, or an object of antd design tokens. */
export function themeOverridesIssue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' && !Array.isArray(value) ? null : 'settings.rules.tokens';
}

/** Parses a preset's transforms text: blank is null; else a JSON list of `[operation, ...arguments]`. */
export function parseTransforms(text: string | null | undefined): { ok: true; value: unknown[] | null } | { ok: false } {
  if (isBlank(text)) return { ok: true, value: null };
  try {
    const value: unknown = JSON.parse(String(text));
    return Array.isArray(value) && value.every((step) => Array.isArray(step) && typeof step[0] === 'string') ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const blankToNull = (value: unknown) => (isBlank(value) ? null : value);

/** Parses the registration e-mail filter text: blank is null; else a JSON object (a filter on `email`). */
export function parseEmailFilter(text: string | null | undefined): { ok: true; value: Record<string, unknown> | null } | { ok: false } {
  if (isBlank(text)) return { ok: true, value: null };
  try {
    const value: unknown = JSON.parse(String(text));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ok: true, value: value as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The PATCH /settings body from the form: blanks become null, presets get the default quality, tileSize goes with raster. */
export function toSettingsPayload(values: SettingsFormValues): Record<string, unknown> {
  const presets = (values.storage_asset_presets ?? []).map((preset) => {
    const transforms = parseTransforms(preset.transforms);
    return {
      key: preset.key,
      fit: preset.fit,
      width: preset.width,
      height: preset.height,
      quality: preset.quality ?? QUALITY.default,
      withoutEnlargement: preset.withoutEnlargement ?? false,
      format: blankToNull(preset.format),
      transforms: transforms.ok ? transforms.value : null,
    };
  });
  const basemaps = (values.basemaps ?? []).map((basemap) => ({
    name: basemap.name,
    type: basemap.type,
    url: basemap.url,
    ...(showsTileSize(basemap.type) && !isBlank(basemap.tileSize) ? { tileSize: basemap.tileSize } : {}),
    attribution: blankToNull(basemap.attribution),
  }));
  return {
    project_name: values.project_name,
    project_descriptor: blankToNull(values.project_descriptor),
    project_url: blankToNull(values.project_url),
    project_color: values.project_color,
    project_logo: blankToNull(values.project_logo),
    public_note: blankToNull(values.public_note),
    default_language: values.default_language,
    default_appearance: values.default_appearance,
    auth_password_policy: values.auth_password_policy,
    auth_login_attempts: blankToNull(values.auth_login_attempts),
    public_registration: values.public_registration ?? false,
    public_registration_verify_email: values.public_registration_verify_email ?? true,
    public_registration_role: blankToNull(values.public_registration_role),
    public_registration_email_filter: ((filter) => (filter.ok ? filter.value : null))(parseEmailFilter(values.public_registration_email_filter)),
    storage_asset_transform: values.storage_asset_transform,
    storage_asset_presets: presets.length > 0 ? presets : null,
    mapbox_key: blankToNull(values.mapbox_key),
    basemaps: basemaps.length > 0 ? basemaps : null,
    custom_aspect_ratios: (values.custom_aspect_ratios ?? []).length > 0 ? values.custom_aspect_ratios : null,
    custom_css: blankToNull(values.custom_css),
    public_foreground: blankToNull(values.public_foreground),
    public_background: blankToNull(values.public_background),
    public_favicon: blankToNull(values.public_favicon),
    report_bug_url: blankToNull(values.report_bug_url),
    report_feature_url: blankToNull(values.report_feature_url),
    report_error_url: blankToNull(values.report_error_url),
    theme_light_overrides: values.theme_light_overrides ?? null,
    theme_dark_overrides: values.theme_dark_overrides ?? null,
    ...(values.module_bar ? { module_bar: values.module_bar.map(toModuleBarEntry) } : {}),
  };
}

function toModuleBarEntry(entry: Partial<ModuleBarFormEntry>): Record<string, unknown> {
  if (entry.type === 'module') return { type: 'module', id: entry.id, enabled: entry.enabled !== false };
  return { type: 'link', id: entry.id, name: entry.name, icon: blankToNull(entry.icon) ?? 'link', url: String(entry.url ?? '').trim(), enabled: entry.enabled !== false };
}

/** A file field as read (an id, or an object when expanded) as the id the form keeps. */
function fileId(value: unknown): string | null {
  return (typeof value === 'object' && value !== null ? (value as { id?: string }).id : value) as string | null;
}

/** Settings as /settings reads them, shaped for the form (transforms as JSON text). */
export function toSettingsFormValues(settings: Record<string, unknown>): SettingsFormValues {
  const presets = Array.isArray(settings.storage_asset_presets) ? (settings.storage_asset_presets as Array<Record<string, unknown>>) : [];
  return {
    ...(settings as SettingsFormValues),
    project_logo: fileId(settings.project_logo),
    public_foreground: fileId(settings.public_foreground),
    public_background: fileId(settings.public_background),
    public_favicon: fileId(settings.public_favicon),
    storage_asset_presets: presets.map((preset) => ({
      ...(preset as Partial<AssetPreset>),
      transforms: preset.transforms ? JSON.stringify(preset.transforms) : null,
    })),
    public_registration_email_filter: settings.public_registration_email_filter ? JSON.stringify(settings.public_registration_email_filter) : null,
    basemaps: Array.isArray(settings.basemaps) ? (settings.basemaps as Array<Partial<Basemap>>) : [],
    custom_aspect_ratios: Array.isArray(settings.custom_aspect_ratios) ? (settings.custom_aspect_ratios as Array<Partial<AspectRatio>>) : [],
  };
}

/** Every problem of a settings form, as form field paths and message keys. */
export function settingsIssues(values: SettingsFormValues): Array<{ name: Array<string | number>; message: string }> {
  const issues: Array<{ name: Array<string | number>; message: string }> = [];
  const inList = (list: string, found: Issue[]) => found.forEach((issue) => issues.push({ name: [list, issue.index, issue.field], message: issue.message }));
  if (!values.project_name || values.project_name.trim() === '') issues.push({ name: ['project_name'], message: 'settings.rules.required' });
  const colour = colourIssue(values.project_color);
  if (colour) issues.push({ name: ['project_color'], message: colour });
  const attempts = loginAttemptsIssue(values.auth_login_attempts);
  if (attempts) issues.push({ name: ['auth_login_attempts'], message: attempts });
  if (!parseEmailFilter(values.public_registration_email_filter).ok) issues.push({ name: ['public_registration_email_filter'], message: 'settings.rules.emailFilter' });
  const presets = values.storage_asset_presets ?? [];
  inList('storage_asset_presets', assetPresetsIssues(presets.map((preset) => ({ ...preset, transforms: undefined }))));
  presets.forEach((preset, index) => {
    if (!parseTransforms(preset.transforms).ok) issues.push({ name: ['storage_asset_presets', index, 'transforms'], message: 'settings.rules.transforms' });
  });
  (values.basemaps ?? []).forEach((basemap, index) => inList('basemaps', basemapIssues(basemap, index)));
  (values.custom_aspect_ratios ?? []).forEach((ratio, index) => inList('custom_aspect_ratios', aspectRatioIssues(ratio, index)));
  (values.module_bar ?? []).forEach((entry, index) => inList('module_bar', moduleBarIssues(entry, index)));
  for (const name of ['theme_light_overrides', 'theme_dark_overrides'] as const) {
    const tokens = themeOverridesIssue(values[name]);
    if (tokens) issues.push({ name: [name], message: tokens });
  }
  return issues;
}
