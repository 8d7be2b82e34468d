import { configTable } from './config-tables.ts';
import { compareText, sortRows } from './sort.ts';
import type { SnapshotDocument, SnapshotRow } from './types.ts';

/**
 * The file layout of a snapshot folder. One file per collection (its fields and relations inside) and
 * one per role (its permissions and presets inside), so a change to one collection or role touches one
 * file in a pull request; the rest of the configuration in one file per kind under config/.
 *
 *   tessera.yaml                 version and vendor
 *   collections/<name>.yaml      collection, meta, schema, fields[], relations[]
 *   roles/<role>.yaml            role, permissions[], presets[]
 *   roles/public.yaml            public: true, permissions[] (requests without a user)
 *   config/<kind>.yaml           folders, flows (operations[] inside), dashboards (panels[] inside),
 *                                webhooks, translations, presets (global ones), settings,
 *                                extensions (which are enabled)
 */
export type SnapshotFiles = Map<string, unknown>;

/** The manifest file, without extension. */
export const MANIFEST = 'tessera';

/** Extensions the loader reads. */
export const SNAPSHOT_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** Folders of a snapshot that hold generated files only (stale files there are removed on write). */
export const SNAPSHOT_FOLDERS = ['collections', 'roles', 'config'] as const;

/** A file-name-safe form of a name: lower case, anything else than letters and digits as `-`. */
export function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'unnamed'
  );
}

/** A name not taken yet in `used` (`name`, `name-2`, `name-3` …). */
function unique(name: string, used: Set<string>): string {
  let candidate = name;
  for (let index = 2; used.has(candidate); index++) candidate = `${name}-${index}`;
  used.add(candidate);
  return candidate;
}

const without = (row: SnapshotRow, key: string): SnapshotRow => {
  const { [key]: _dropped, ...rest } = row;
  return rest;
};

/** Splits a document into files (paths without extension → content). */
export function splitDocument(document: SnapshotDocument): SnapshotFiles {
  const files: SnapshotFiles = new Map();
  files.set(MANIFEST, { version: document.version, vendor: document.vendor });
  for (const collection of document.collections) {
    files.set(`collections/${collection.collection}`, {
      ...collection,
      fields: document.fields.filter((field) => field.collection === collection.collection).map((field) => without(field as unknown as SnapshotRow, 'collection')),
      relations: document.relations.filter((relation) => relation.collection === collection.collection).map((relation) => without(relation as unknown as SnapshotRow, 'collection')),
    });
  }
  if (document.roles) {
    const used = new Set<string>(['public']);
    const roles = [...document.roles].sort((a, b) => compareText(String(a.name), String(b.name)));
    for (const role of roles) {
      const content: Record<string, unknown> = { role };
      if (document.permissions) content.permissions = document.permissions.filter((row) => row.role === role.name).map((row) => without(row, 'role'));
      if (document.presets) content.presets = document.presets.filter((row) => row.role === role.name).map((row) => without(row, 'role'));
      files.set(`roles/${unique(slug(String(role.name)), used)}`, content);
    }
    if (document.permissions) {
      files.set('roles/public', { public: true, permissions: document.permissions.filter((row) => row.role === null).map((row) => without(row, 'role')) });
    }
  }
  if (document.presets) files.set('config/presets', { presets: document.presets.filter((row) => row.role === null).map((row) => without(row, 'role')) });
  if (document.folders) files.set('config/folders', { folders: document.folders });
  if (document.flows) {
    const operations = document.operations ?? [];
    files.set('config/flows', {
      flows: document.flows.map((flow) => ({ ...flow, operations: operations.filter((operation) => operation.flow === flow.id).map((operation) => without(operation, 'flow')) })),
    });
  }
  if (document.dashboards) {
    const panels = document.panels ?? [];
    files.set('config/dashboards', {
      dashboards: document.dashboards.map((dashboard) => ({ ...dashboard, panels: panels.filter((panel) => panel.dashboard === dashboard.id).map((panel) => without(panel, 'dashboard')) })),
    });
  }
  if (document.webhooks) files.set('config/webhooks', { webhooks: document.webhooks });
  if (document.translations) files.set('config/translations', { translations: document.translations });
  if (document.settings !== undefined) files.set('config/settings', { settings: document.settings });
  // No file for none: an empty list changes nothing (rows a snapshot does not list are kept, extension-flags.ts).
  if (document.extensions?.length) files.set('config/extensions', { extensions: document.extensions });
  return files;
}

type Parsed = Record<string, any>;

/**
 * Joins files (validated already, see validate-files.ts) back into one document. A kind whose file is
 * absent stays absent from the document: it is not managed.
 */
export function joinFiles(manifest: Parsed, collections: Parsed[], roles: Parsed[], config: Map<string, Parsed>): SnapshotDocument {
  const document: SnapshotDocument = {
    version: manifest.version,
    vendor: manifest.vendor,
    collections: collections.map(({ fields: _fields, relations: _relations, ...collection }) => collection as SnapshotDocument['collections'][number]),
    fields: collections.flatMap((file) => (file.fields ?? []).map((field: Parsed) => ({ collection: file.collection, ...field }))),
    relations: collections.flatMap((file) => (file.relations ?? []).map((relation: Parsed) => ({ collection: file.collection, ...relation }))),
  };
  if (roles.length > 0) {
    document.roles = roles.filter((file) => !file.public).map((file) => file.role);
    document.permissions = roles.flatMap((file) => (file.permissions ?? []).map((row: Parsed) => ({ role: file.public ? null : file.role.name, ...row })));
  }
  const presets = config.get('presets');
  if (presets) {
    const rolePresets = roles.filter((file) => !file.public).flatMap((file) => (file.presets ?? []).map((row: Parsed) => ({ role: file.role.name, ...row })));
    document.presets = [...presets.presets.map((row: Parsed) => ({ role: null, ...row })), ...rolePresets];
  }
  if (config.has('folders')) document.folders = config.get('folders')!.folders;
  const flows = config.get('flows');
  if (flows) {
    document.flows = flows.flows.map(({ operations: _operations, ...flow }: Parsed) => flow);
    document.operations = flows.flows.flatMap((flow: Parsed) => (flow.operations ?? []).map((operation: Parsed) => ({ flow: flow.id, ...operation })));
  }
  const dashboards = config.get('dashboards');
  if (dashboards) {
    document.dashboards = dashboards.dashboards.map(({ panels: _panels, ...dashboard }: Parsed) => dashboard);
    document.panels = dashboards.dashboards.flatMap((dashboard: Parsed) => (dashboard.panels ?? []).map((panel: Parsed) => ({ dashboard: dashboard.id, ...panel })));
  }
  if (config.has('webhooks')) document.webhooks = config.get('webhooks')!.webhooks;
  if (config.has('translations')) document.translations = config.get('translations')!.translations;
  if (config.has('settings')) document.settings = config.get('settings')!.settings;
  if (config.has('extensions')) document.extensions = config.get('extensions')!.extensions;
  return document;
}

/** Sorts every section of a document (fields and relations by collection and name, rows by key). */
export function sortDocument(document: SnapshotDocument): SnapshotDocument {
  const sorted: SnapshotDocument = {
    ...document,
    collections: [...document.collections].sort((a, b) => compareText(a.collection, b.collection)),
    fields: [...document.fields].sort((a, b) => compareText(a.collection, b.collection) || compareText(a.field, b.field)),
    relations: [...document.relations].sort((a, b) => compareText(a.collection, b.collection) || compareText(a.field, b.field)),
  };
  for (const section of ['roles', 'folders', 'flows', 'operations', 'dashboards', 'panels', 'webhooks', 'translations', 'permissions', 'presets', 'extensions'] as const) {
    const rows = document[section];
    if (rows) sorted[section] = sortRows(configTable(section), rows);
  }
  return sorted;
}
