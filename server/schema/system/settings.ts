import type { SystemCollection, SystemField } from '../types.ts';
import {
  APPEARANCES,
  ASSET_FITS,
  ASSET_FORMATS,
  ASSET_PRESET_QUALITY,
  ASSET_TRANSFORM_MODES,
  BASEMAP_TYPES,
  type PasswordPolicyName,
} from './constants.ts';
import { choices, collection, field, m2o, select, serialKey } from './define.ts';

/** Sub-fields of an asset preset (SPEC.md §3, §5: key required and slug-like; fit, width, height, quality non-null). */
const ASSET_PRESET_FIELDS = [
  { field: 'key', type: 'string', meta: { interface: 'input', required: true, options: { slug: true } } },
  {
    field: 'fit',
    type: 'string',
    meta: { interface: 'select-dropdown', required: true, options: choices(ASSET_FITS) },
    schema: { is_nullable: false },
  },
  { field: 'width', type: 'integer', meta: { interface: 'input', required: true }, schema: { is_nullable: false } },
  { field: 'height', type: 'integer', meta: { interface: 'input', required: true }, schema: { is_nullable: false } },
  {
    field: 'quality',
    type: 'integer',
    meta: {
      interface: 'slider',
      required: true,
      options: {
        minValue: ASSET_PRESET_QUALITY.min,
        maxValue: ASSET_PRESET_QUALITY.max,
        stepInterval: ASSET_PRESET_QUALITY.step,
      },
    },
    schema: { is_nullable: false, default_value: ASSET_PRESET_QUALITY.default },
  },
  { field: 'withoutEnlargement', type: 'boolean', meta: { interface: 'boolean' } },
  { field: 'format', type: 'string', meta: { interface: 'select-dropdown', options: choices(ASSET_FORMATS) } },
  { field: 'transforms', type: 'json', meta: { interface: 'input-code', options: { language: 'json' } } },
];

/** Sub-fields of a map basemap (SPEC.md §3, §5: name and url required; tileSize only for non-raster types). */
const BASEMAP_FIELDS = [
  { field: 'name', type: 'string', meta: { interface: 'input', required: true } },
  { field: 'type', type: 'string', meta: { interface: 'select-dropdown', options: choices(BASEMAP_TYPES) } },
  { field: 'url', type: 'string', meta: { interface: 'input', required: true } },
  {
    field: 'tileSize',
    type: 'integer',
    meta: {
      interface: 'input',
      hidden: true,
      conditions: [{ name: 'Not raster', rule: { type: { _neq: 'raster' } }, hidden: false }],
    },
  },
  { field: 'attribution', type: 'string', meta: { interface: 'input' } },
];

/** Sub-fields of a custom aspect ratio (SPEC.md §3: text, value as float). */
const ASPECT_RATIO_FIELDS = [
  { field: 'text', type: 'string', meta: { interface: 'input', required: true } },
  { field: 'value', type: 'float', meta: { interface: 'input', required: true } },
];

const PASSWORD_POLICY_CHOICES = [
  { text: 'None', value: 'none' },
  { text: 'Weak (at least 8 characters)', value: 'weak' },
  { text: 'Strong (8+ characters with upper and lower case, a digit and a special character, no spaces)', value: 'strong' },
] satisfies Array<{ text: string; value: PasswordPolicyName }>;

/** An m2o to an image in tessera_files. */
function image(name: string): SystemField {
  return m2o(name, 'tessera_files', { interface: 'file-image', width: 'half' });
}

/** tessera_settings: the project's single settings row (SPEC.md §3 "Settings", §9). */
export const settings: SystemCollection = collection(
  'tessera_settings',
  [
    serialKey(),
    field('project_name', 'string', { nullable: false, width: 'half' }),
    field('project_descriptor', 'string', { width: 'half' }),
    field('project_url', 'string', { width: 'half' }),
    field('default_language', 'string', { nullable: false, interface: 'system-language', width: 'half' }),
    field('project_color', 'string', { nullable: false, interface: 'select-color', width: 'half' }),
    image('project_logo'),
    image('public_foreground'),
    image('public_background'),
    image('public_favicon'),
    field('public_note', 'text', { interface: 'input-rich-text-md' }),
    field('default_appearance', 'string', { ...select(APPEARANCES), nullable: false, width: 'half' }),
    field('default_theme_light', 'string', { interface: 'system-theme', width: 'half' }),
    field('default_theme_dark', 'string', { interface: 'system-theme', width: 'half' }),
    field('theme_light_overrides', 'json', { interface: 'system-theme-overrides' }),
    field('theme_dark_overrides', 'json', { interface: 'system-theme-overrides' }),
    field('custom_css', 'text', { interface: 'input-code', options: { language: 'css' } }),
    field('module_bar', 'json', { interface: 'system-modules' }),
    field('auth_password_policy', 'string', {
      interface: 'select-dropdown',
      options: { choices: PASSWORD_POLICY_CHOICES },
      nullable: false,
      width: 'half',
    }),
    field('auth_login_attempts', 'integer', { width: 'half', note: 'Leave blank for unlimited attempts' }),
    field('public_registration', 'boolean', { nullable: false, interface: 'boolean', width: 'half', note: 'Anyone may create an account with POST /users/register' }),
    field('public_registration_verify_email', 'boolean', { nullable: false, interface: 'boolean', width: 'half', note: 'New accounts stay unverified until the e-mailed link is opened' }),
    m2o('public_registration_role', 'tessera_roles', { interface: 'select-dropdown-m2o', width: 'half', note: 'The role registered users get (none: no role)' }),
    field('public_registration_email_filter', 'json', { interface: 'system-filter', note: 'Only e-mail addresses matching this filter may register' }),
    field('storage_asset_transform', 'string', { ...select(ASSET_TRANSFORM_MODES), nullable: false, width: 'half' }),
    m2o('storage_default_folder', 'tessera_folders', { interface: 'system-folder', width: 'half' }),
    field('storage_asset_presets', 'json', {
      interface: 'list',
      options: { template: '{{ key }}', fields: ASSET_PRESET_FIELDS },
    }),
    field('report_feature_url', 'string', { width: 'half' }),
    field('report_bug_url', 'string', { width: 'half' }),
    field('report_error_url', 'string', { width: 'half' }),
    field('mapbox_key', 'string', { width: 'half' }),
    field('basemaps', 'json', { interface: 'list', options: { template: '{{ name }}', fields: BASEMAP_FIELDS } }),
    field('custom_aspect_ratios', 'json', {
      interface: 'list',
      options: { template: '{{ text }}', fields: ASPECT_RATIO_FIELDS },
    }),
  ],
  { icon: 'settings', singleton: true },
);
