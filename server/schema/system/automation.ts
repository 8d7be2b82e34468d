import type { SystemCollection } from '../types.ts';
import { ACCOUNTABILITY_VALUES, WEBHOOK_ACTIONS, WEBHOOK_METHODS, WEBHOOK_STATUSES } from './constants.ts';
import {
  choices,
  collection,
  dateCreated,
  field,
  m2o,
  o2m,
  select,
  serialKey,
  userCreated,
  uuidKey,
} from './define.ts';

/** tessera_flows: automations started by a trigger, running a chain of operations. */
export const flows: SystemCollection = collection(
  'tessera_flows',
  [
    uuidKey(),
    field('name', 'string', { nullable: false, required: true, width: 'half' }),
    field('icon', 'string', { interface: 'select-icon', width: 'half' }),
    field('color', 'string', { interface: 'select-color', width: 'half' }),
    field('description', 'text', { interface: 'input' }),
    field('status', 'string', { nullable: false, width: 'half' }),
    field('trigger', 'string', { width: 'half' }),
    field('accountability', 'string', { ...select(ACCOUNTABILITY_VALUES), width: 'half' }),
    field('options', 'json'),
    m2o('operation', 'tessera_operations', { width: 'half' }),
    o2m('operations'),
    dateCreated(),
    userCreated(),
  ],
  { icon: 'bolt', display_template: '{{name}}' },
);

/** tessera_operations: one step of a flow, linked to the next step on resolve or reject. */
export const operations: SystemCollection = collection(
  'tessera_operations',
  [
    uuidKey(),
    field('name', 'string', { width: 'half' }),
    field('key', 'string', { nullable: false, required: true, width: 'half' }),
    field('type', 'string', { nullable: false, required: true, width: 'half' }),
    field('position_x', 'integer', { nullable: false, required: true, width: 'half' }),
    field('position_y', 'integer', { nullable: false, required: true, width: 'half' }),
    field('options', 'json'),
    m2o('resolve', 'tessera_operations', { width: 'half' }),
    m2o('reject', 'tessera_operations', { width: 'half' }),
    m2o('flow', 'tessera_flows', { nullable: false, required: true, width: 'half' }),
    dateCreated(),
    userCreated(),
  ],
  { icon: 'account_tree', display_template: '{{name}}' },
);

/** Sub-fields of a webhook header (SPEC.md §3: header, value). */
const WEBHOOK_HEADER_FIELDS = [
  { field: 'header', type: 'string', meta: { interface: 'input', required: true, width: 'half' } },
  { field: 'value', type: 'string', meta: { interface: 'input', required: true, width: 'half' } },
];

/** tessera_webhooks: HTTP calls made when items are created, updated or deleted (SPEC.md §3, §4, §9). */
export const webhooks: SystemCollection = collection(
  'tessera_webhooks',
  [
    serialKey(),
    field('name', 'string', { nullable: false, required: true }),
    field('method', 'string', { ...select(WEBHOOK_METHODS), nullable: false, width: 'half' }),
    field('url', 'string', { nullable: false, required: true }),
    field('status', 'string', { ...select(WEBHOOK_STATUSES), nullable: false, width: 'half' }),
    field('data', 'boolean', { nullable: false, width: 'half' }),
    field('headers', 'json', {
      interface: 'list',
      options: { template: '{{ header }}: {{ value }}', fields: WEBHOOK_HEADER_FIELDS },
    }),
    field('actions', 'csv', {
      nullable: false,
      required: true,
      interface: 'select-multiple-checkbox',
      options: choices(WEBHOOK_ACTIONS),
    }),
    field('collections', 'csv', { nullable: false, required: true, interface: 'system-collections' }),
    field('was_active_before_deprecation', 'boolean', { nullable: false, readonly: true, hidden: true }),
    m2o('migrated_flow', 'tessera_flows', { readonly: true, hidden: true }),
  ],
  { icon: 'anchor', display_template: '{{name}}' },
);

/** tessera_extensions: installed extensions; the server registers them, admins toggle `enabled`. */
export const extensions: SystemCollection = collection(
  'tessera_extensions',
  [
    uuidKey(),
    field('folder', 'string', { nullable: false, readonly: true }),
    field('source', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('bundle', 'uuid', { readonly: true, width: 'half' }),
    field('enabled', 'boolean', { nullable: false, width: 'half' }),
  ],
  { icon: 'extension', display_template: '{{folder}}' },
);
