/**
 * The options each catalogue interface takes, by Directus's option names (so snapshots and Directus
 * schemas carry over). The field drawer draws a form from these; the interface reads `meta.options`.
 */
import { BLOCK_TOOLS, DEFAULT_BLOCK_TOOLS } from './block-editor/block-tool-names.ts';
import { CODE_LANGUAGE_IDS } from './code/code-languages.ts';
import { DEFAULT_TOOLBAR, RICH_TEXT_TOOLBAR } from './rich-text/toolbar-names.ts';

/** One option: its name in `meta.options`, the kind of input it takes and its default. */
export type InterfaceOption =
  | { field: string; kind: 'boolean'; default: boolean }
  | { field: string; kind: 'text'; default?: string }
  | { field: string; kind: 'number'; default?: number }
  | { field: string; kind: 'select'; values: readonly string[]; default?: string }
  /** Several of the values, stored as a list in the order chosen (a toolbar's buttons, an editor's tools). */
  | { field: string; kind: 'multiselect'; values: readonly string[]; default?: readonly string[] }
  /** A folder of the file library (its id): where an editor's uploads go. */
  | { field: string; kind: 'folder' }
  /** Any JSON value, edited as text (nested choices, colour presets). */
  | { field: string; kind: 'json' }
  /** A list of `{ field, name, type, interface }` rows: the repeater's own fields. */
  | { field: string; kind: 'fields' };

/** The options form of each interface that has one. */
export const INTERFACE_OPTIONS: Readonly<Record<string, readonly InterfaceOption[]>> = {
  input: [
    { field: 'placeholder', kind: 'text' },
    { field: 'trim', kind: 'boolean', default: false },
    { field: 'slug', kind: 'boolean', default: false },
    { field: 'masked', kind: 'boolean', default: false },
    { field: 'font', kind: 'select', values: ['sans-serif', 'serif', 'monospace'], default: 'sans-serif' },
    { field: 'min', kind: 'number' },
    { field: 'max', kind: 'number' },
    { field: 'step', kind: 'number' },
  ],
  datetime: [
    { field: 'includeSeconds', kind: 'boolean', default: false },
    { field: 'use24', kind: 'boolean', default: true },
  ],
  'list-m2a': [
    { field: 'enableSelect', kind: 'boolean', default: true },
    { field: 'enableCreate', kind: 'boolean', default: true },
    { field: 'allowDuplicates', kind: 'boolean', default: false },
  ],
  'select-dropdown': [
    { field: 'allowOther', kind: 'boolean', default: false },
    { field: 'placeholder', kind: 'text' },
  ],
  'select-multiple-dropdown': [
    { field: 'allowOther', kind: 'boolean', default: false },
    { field: 'placeholder', kind: 'text' },
  ],
  'select-multiple-checkbox-tree': [
    { field: 'choices', kind: 'json' },
    { field: 'valueCombining', kind: 'select', values: ['all', 'branch', 'leaf'], default: 'all' },
  ],
  'select-color': [
    { field: 'presets', kind: 'json' },
    { field: 'opacity', kind: 'boolean', default: false },
  ],
  boolean: [
    { field: 'label', kind: 'text' },
    { field: 'iconOn', kind: 'text' },
    { field: 'iconOff', kind: 'text' },
    { field: 'colorOn', kind: 'text' },
    { field: 'colorOff', kind: 'text' },
  ],
  tags: [
    { field: 'placeholder', kind: 'text' },
    { field: 'presets', kind: 'json' },
    { field: 'allowCustom', kind: 'boolean', default: true },
    { field: 'alphabetize', kind: 'boolean', default: false },
    { field: 'whitespace', kind: 'text' },
    { field: 'capitalization', kind: 'select', values: ['uppercase', 'lowercase'] },
  ],
  slider: [
    { field: 'minValue', kind: 'number', default: 0 },
    { field: 'maxValue', kind: 'number', default: 100 },
    { field: 'stepInterval', kind: 'number' },
    { field: 'alwaysShowValue', kind: 'boolean', default: false },
  ],
  'input-hash': [
    { field: 'placeholder', kind: 'text' },
    { field: 'masked', kind: 'boolean', default: true },
  ],
  'input-code': [
    { field: 'language', kind: 'select', values: CODE_LANGUAGE_IDS },
    { field: 'lineNumber', kind: 'boolean', default: true },
    { field: 'lineWrapping', kind: 'boolean', default: false },
    { field: 'template', kind: 'text' },
  ],
  'input-rich-text-html': [
    { field: 'toolbar', kind: 'multiselect', values: RICH_TEXT_TOOLBAR, default: DEFAULT_TOOLBAR },
    { field: 'font', kind: 'select', values: ['sans-serif', 'serif', 'monospace'], default: 'sans-serif' },
    { field: 'folder', kind: 'folder' },
    { field: 'imageToken', kind: 'text' },
    { field: 'softLength', kind: 'number' },
  ],
  'input-block-editor': [
    { field: 'placeholder', kind: 'text' },
    { field: 'tools', kind: 'multiselect', values: BLOCK_TOOLS, default: DEFAULT_BLOCK_TOOLS },
    { field: 'font', kind: 'select', values: ['sans-serif', 'serif', 'monospace'], default: 'sans-serif' },
    { field: 'bordered', kind: 'boolean', default: true },
    { field: 'folder', kind: 'folder' },
  ],
  'presentation-divider': [
    { field: 'title', kind: 'text' },
    { field: 'color', kind: 'text' },
    { field: 'inlineTitle', kind: 'boolean', default: false },
  ],
  'presentation-notice': [
    { field: 'color', kind: 'select', values: ['normal', 'info', 'success', 'warning', 'danger'], default: 'normal' },
    { field: 'text', kind: 'text' },
  ],
  'presentation-links': [{ field: 'links', kind: 'json' }],
  list: [
    { field: 'fields', kind: 'fields' },
    { field: 'template', kind: 'text' },
    { field: 'addLabel', kind: 'text' },
  ],
  'input-autocomplete-api': [
    { field: 'url', kind: 'text' },
    { field: 'resultsPath', kind: 'text' },
    { field: 'textPath', kind: 'text' },
    { field: 'valuePath', kind: 'text' },
    { field: 'trigger', kind: 'select', values: ['throttle', 'debounce'], default: 'throttle' },
    { field: 'rate', kind: 'number', default: 500 },
    { field: 'placeholder', kind: 'text' },
    { field: 'font', kind: 'select', values: ['sans-serif', 'serif', 'monospace'], default: 'sans-serif' },
  ],
  header: [
    { field: 'title', kind: 'text' },
    { field: 'subtitle', kind: 'text' },
    { field: 'icon', kind: 'text' },
    { field: 'color', kind: 'text' },
    { field: 'help', kind: 'text' },
    { field: 'helpDisplayMode', kind: 'select', values: ['inline', 'modal'], default: 'inline' },
    { field: 'links', kind: 'json' },
  ],
  'key-value': [
    { field: 'keyPlaceholder', kind: 'text' },
    { field: 'valuePlaceholder', kind: 'text' },
    { field: 'addLabel', kind: 'text' },
  ],
  'list-o2m-tree-view': [
    { field: 'enableCreate', kind: 'boolean', default: true },
    { field: 'enableSelect', kind: 'boolean', default: true },
  ],
  'file-image': [
    { field: 'folder', kind: 'folder' },
    { field: 'crop', kind: 'boolean', default: true },
  ],
  file: [{ field: 'folder', kind: 'folder' }],
  // Directus's `limit` on files is the files shown per page (its default 15), not a cap on how many.
  files: [
    { field: 'folder', kind: 'folder' },
    { field: 'limit', kind: 'number', default: 15 },
  ],
};

/** Tessera's own displays, by Directus's ids (content/displays registers them). */
export const BUILT_IN_DISPLAYS = ['raw', 'formatted-value', 'labels', 'boolean', 'color', 'icon', 'datetime', 'rating', 'mime-type', 'related-values', 'user', 'file', 'image', 'translations', 'collection'] as const;
/** A built-in display's id. */
export type BuiltInDisplay = (typeof BUILT_IN_DISPLAYS)[number];

/** The options form of each display that has one (`meta.display_options`). */
export const DISPLAY_OPTIONS: Readonly<Record<string, readonly InterfaceOption[]>> = {
  'formatted-value': [
    { field: 'prefix', kind: 'text' },
    { field: 'suffix', kind: 'text' },
    { field: 'bold', kind: 'boolean', default: false },
    { field: 'italic', kind: 'boolean', default: false },
    { field: 'color', kind: 'text' },
    { field: 'background', kind: 'text' },
    { field: 'conditionalFormatting', kind: 'json' },
  ],
  labels: [
    { field: 'showAsDot', kind: 'boolean', default: false },
    { field: 'choices', kind: 'json' },
  ],
  boolean: [
    { field: 'labelOn', kind: 'text' },
    { field: 'labelOff', kind: 'text' },
    { field: 'colorOn', kind: 'text' },
    { field: 'colorOff', kind: 'text' },
  ],
  color: [{ field: 'defaultColor', kind: 'text' }],
  icon: [{ field: 'color', kind: 'text' }],
  datetime: [
    { field: 'relative', kind: 'boolean', default: false },
    { field: 'format', kind: 'select', values: ['long', 'short'], default: 'long' },
  ],
  rating: [
    { field: 'simple', kind: 'boolean', default: false },
    { field: 'maxValue', kind: 'number', default: 5 },
  ],
  'mime-type': [{ field: 'showAsExtension', kind: 'boolean', default: false }],
  'related-values': [{ field: 'template', kind: 'text' }],
  user: [
    { field: 'display', kind: 'select', values: ['both', 'avatar', 'name'], default: 'both' },
    { field: 'circle', kind: 'boolean', default: true },
  ],
  translations: [
    { field: 'template', kind: 'text' },
    { field: 'languageField', kind: 'text' },
    { field: 'defaultLanguage', kind: 'text' },
    { field: 'userLanguage', kind: 'boolean', default: true },
  ],
  collection: [{ field: 'icon', kind: 'boolean', default: false }],
};

/** The options of an interface with their defaults filled in where the stored options leave them out. */
export function withOptionDefaults(id: string | null | undefined, stored: Record<string, unknown> | null | undefined, specs: Readonly<Record<string, readonly InterfaceOption[]>> = INTERFACE_OPTIONS): Record<string, unknown> {
  const values: Record<string, unknown> = { ...stored };
  for (const option of specs[id ?? ''] ?? []) if (values[option.field] === undefined && 'default' in option && option.default !== undefined) values[option.field] = option.default;
  return values;
}

/** The options worth storing: those that differ from their defaults (a default is what the interface assumes anyway). */
export function withoutDefaults(id: string | null | undefined, options: Record<string, unknown>, specs: Readonly<Record<string, readonly InterfaceOption[]>> = INTERFACE_OPTIONS): Record<string, unknown> {
  const kept = { ...options };
  // Lists (a toolbar) equal their default when they hold the same names in the same order.
  for (const option of specs[id ?? ''] ?? []) if ('default' in option && JSON.stringify(kept[option.field]) === JSON.stringify(option.default)) delete kept[option.field];
  return kept;
}
