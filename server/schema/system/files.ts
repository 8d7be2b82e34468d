import type { SystemCollection } from '../types.ts';
import { collection, field, m2o, uuidKey } from './define.ts';

/** tessera_files: uploaded files and their storage facts (SPEC.md §3). */
export const files: SystemCollection = collection(
  'tessera_files',
  [
    uuidKey(),
    field('title', 'string'),
    field('description', 'text'),
    field('tags', 'csv'),
    field('location', 'text', { interface: 'input' }),
    field('storage', 'string', { nullable: false, readonly: true, width: 'half' }),
    field('focal_point_x', 'integer', { width: 'half' }),
    field('focal_point_y', 'integer', { width: 'half' }),
    field('filename_disk', 'string', { readonly: true, width: 'half' }),
    field('filename_download', 'string', { nullable: false, width: 'half' }),
    field('metadata', 'json', { readonly: true, hidden: true }),
    field('type', 'string', { readonly: true, width: 'half' }),
    field('filesize', 'bigInteger', { readonly: true, width: 'half' }),
    m2o('modified_by', 'tessera_users', { special: ['user-updated', 'm2o'], readonly: true, width: 'half' }),
    field('modified_on', 'timestamp', { nullable: false, special: ['date-updated'], readonly: true, width: 'half' }),
    field('embed', 'string', { readonly: true, hidden: true }),
    m2o('uploaded_by', 'tessera_users', { special: ['user-created', 'm2o'], readonly: true, width: 'half' }),
    field('uploaded_on', 'timestamp', { nullable: false, special: ['date-created'], readonly: true, width: 'half' }),
    m2o('folder', 'tessera_folders', { interface: 'system-folder', width: 'half' }),
    field('width', 'integer', { readonly: true, width: 'half' }),
    field('height', 'integer', { readonly: true, width: 'half' }),
    field('charset', 'string', { readonly: true, width: 'half' }),
    field('duration', 'integer', { readonly: true, width: 'half' }),
  ],
  { icon: 'folder', display_template: '{{title}}' },
);

/** tessera_folders: the virtual folder tree files are sorted into. */
export const folders: SystemCollection = collection(
  'tessera_folders',
  [
    uuidKey(),
    field('name', 'string', { nullable: false, required: true }),
    m2o('parent', 'tessera_folders', { interface: 'system-folder' }),
  ],
  { icon: 'folder_open', display_template: '{{name}}' },
);
