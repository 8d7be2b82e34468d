import type { SystemCollection } from '../types.ts';
import { collection, dateCreated, field, m2o, o2m, serialKey, userCreated, uuidKey } from './define.ts';

/** tessera_dashboards: insight dashboards, each a grid of panels. */
export const dashboards: SystemCollection = collection(
  'tessera_dashboards',
  [
    uuidKey(),
    field('name', 'string', { nullable: false, required: true, width: 'half' }),
    field('icon', 'string', { nullable: false, interface: 'select-icon', width: 'half' }),
    o2m('panels'),
    dateCreated(),
    userCreated(),
    field('note', 'text', { interface: 'input' }),
    field('color', 'string', { interface: 'select-color', width: 'half' }),
  ],
  { icon: 'dashboard', display_template: '{{name}}' },
);

/** tessera_panels: one tile of a dashboard, placed on its grid. */
export const panels: SystemCollection = collection(
  'tessera_panels',
  [
    uuidKey(),
    field('name', 'string', { width: 'half' }),
    field('icon', 'string', { interface: 'select-icon', width: 'half' }),
    field('color', 'string', { interface: 'select-color', width: 'half' }),
    field('note', 'text', { interface: 'input' }),
    field('type', 'string', { nullable: false, required: true, width: 'half' }),
    field('show_header', 'boolean', { nullable: false, width: 'half' }),
    field('position_x', 'integer', { nullable: false, required: true, width: 'half' }),
    field('position_y', 'integer', { nullable: false, required: true, width: 'half' }),
    field('width', 'integer', { nullable: false, required: true, width: 'half' }),
    field('height', 'integer', { nullable: false, required: true, width: 'half' }),
    field('options', 'json'),
    dateCreated(),
    userCreated(),
    m2o('dashboard', 'tessera_dashboards', { nullable: false, required: true, width: 'half' }),
  ],
  { icon: 'space_dashboard', display_template: '{{name}}' },
);

/** tessera_presets: saved layouts and bookmarks, per user, per role or global (SPEC.md §5, §6). */
export const presets: SystemCollection = collection(
  'tessera_presets',
  [
    serialKey(),
    field('bookmark', 'string', { width: 'half' }),
    m2o('user', 'tessera_users', { width: 'half' }),
    m2o('role', 'tessera_roles', { width: 'half' }),
    field('collection', 'string', { interface: 'system-collection', width: 'half' }),
    field('search', 'string', { width: 'half' }),
    field('layout', 'string', { width: 'half' }),
    field('layout_query', 'json'),
    field('layout_options', 'json'),
    field('refresh_interval', 'integer', { width: 'half' }),
    field('filter', 'json', { interface: 'system-filter' }),
    field('icon', 'string', { interface: 'select-icon', width: 'half' }),
    field('color', 'string', { interface: 'select-color', width: 'half' }),
  ],
  { icon: 'bookmark', display_template: '{{bookmark}}' },
);

/** tessera_translations: custom translation strings; key, language and value are required (SPEC.md §5). */
export const translations: SystemCollection = collection(
  'tessera_translations',
  [
    uuidKey(),
    field('key', 'string', { nullable: false, required: true, width: 'half' }),
    field('language', 'string', { nullable: false, required: true, interface: 'system-language', width: 'half' }),
    field('value', 'text', { nullable: false, required: true }),
  ],
  { icon: 'translate', display_template: '{{key}} ({{language}})' },
);
