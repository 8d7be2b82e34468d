import type { SystemCollection } from '../types.ts';
import {
  collection,
  collectionReference,
  dateCreated,
  dateUpdated,
  field,
  m2o,
  o2m,
  serialKey,
  userCreated,
  userUpdated,
  uuidKey,
} from './define.ts';

/**
 * tessera_activity: the audit log; server-written except comments (SPEC.md §3, §5). `user` has no
 * foreign key in the database so entries outlive the user; the API still resolves it as an m2o.
 */
export const activity: SystemCollection = collection(
  'tessera_activity',
  [
    serialKey(),
    field('item', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('action', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('collection', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('timestamp', 'timestamp', { nullable: false, special: ['date-created'], readonly: true, width: 'half' }),
    m2o('user', 'tessera_users', { readonly: true, width: 'half' }),
    field('comment', 'text', { note: 'Required when creating a comment' }),
    field('user_agent', 'text', { readonly: true }),
    field('origin', 'string', { readonly: true, width: 'half' }),
    field('ip', 'string', { readonly: true, width: 'half' }),
    o2m('revisions', { readonly: true }),
  ],
  { icon: 'access_time', accountability: null },
);

/** tessera_revisions: item snapshots and deltas written with each activity; read-only. */
export const revisions: SystemCollection = collection(
  'tessera_revisions',
  [
    serialKey(),
    m2o('activity', 'tessera_activity', { keyType: 'integer', nullable: false, readonly: true, width: 'half' }),
    field('collection', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('item', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('data', 'json', { readonly: true }),
    field('delta', 'json', { readonly: true }),
    m2o('parent', 'tessera_revisions', { keyType: 'integer', readonly: true, width: 'half' }),
    m2o('version', 'tessera_versions', { readonly: true, width: 'half' }),
  ],
  { icon: 'change_history', accountability: null },
);

/** tessera_versions: named drafts of one item, promoted or discarded later. */
export const versions: SystemCollection = collection(
  'tessera_versions',
  [
    uuidKey(),
    field('key', 'string', { nullable: false, required: true, width: 'half' }),
    field('name', 'string', { width: 'half' }),
    collectionReference(),
    field('item', 'string', { nullable: false, required: true, width: 'half' }),
    field('hash', 'string', { readonly: true, hidden: true }),
    dateCreated(),
    dateUpdated(),
    userCreated(),
    userUpdated(),
  ],
  { icon: 'published_with_changes', display_template: '{{name}}' },
);

/** tessera_notifications: in-app messages from one user (or the system) to another. */
export const notifications: SystemCollection = collection(
  'tessera_notifications',
  [
    serialKey(),
    dateCreated('timestamp'),
    field('status', 'string', { width: 'half' }),
    m2o('recipient', 'tessera_users', { nullable: false, required: true, width: 'half' }),
    m2o('sender', 'tessera_users', { special: ['user-created', 'm2o'], readonly: true, width: 'half' }),
    field('subject', 'string', { nullable: false, required: true }),
    field('message', 'text', { interface: 'input-rich-text-md' }),
    field('collection', 'string', { interface: 'system-collection', width: 'half' }),
    field('item', 'string', { width: 'half' }),
  ],
  { icon: 'notifications', display_template: '{{subject}}' },
);
