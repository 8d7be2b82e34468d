import type { SystemCollection } from '../types.ts';
import { activity, notifications, revisions, versions } from './activity.ts';
import { extensions, flows, operations, webhooks } from './automation.ts';
import { files, folders } from './files.ts';
import { dashboards, panels, presets, translations } from './project.ts';
import { deriveSystemRelations, type SystemRelation } from './relations.ts';
import { collections, fields, migrations, relations } from './schema.ts';
import { settings } from './settings.ts';
import { permissions, roles, sessions, shares, users } from './users-and-roles.ts';

export type { SystemRelation } from './relations.ts';

/** The 24 system collections of SPEC.md §3, in the order SPEC.md lists them. */
export const SYSTEM_COLLECTIONS: readonly SystemCollection[] = Object.freeze([
  activity,
  collections,
  fields,
  files,
  folders,
  migrations,
  permissions,
  presets,
  relations,
  revisions,
  roles,
  sessions,
  settings,
  users,
  webhooks,
  dashboards,
  panels,
  notifications,
  shares,
  flows,
  operations,
  translations,
  versions,
  extensions,
]);

/** The relations between system collections, derived from their m2o fields. */
export const SYSTEM_RELATIONS: readonly SystemRelation[] = Object.freeze(deriveSystemRelations(SYSTEM_COLLECTIONS));

const BY_NAME = new Map(SYSTEM_COLLECTIONS.map((collection) => [collection.collection, collection]));

/** The system collection named `name` (e.g. `tessera_users`), or undefined. */
export function getSystemCollection(name: string): SystemCollection | undefined {
  return BY_NAME.get(name);
}

/** True when `name` is one of the system collections. */
export function isSystemCollection(name: string): boolean {
  return BY_NAME.has(name);
}
