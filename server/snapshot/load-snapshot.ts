import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { InvalidPayloadError } from '../errors.ts';
import { isSystemCollection } from '../schema/system/index.ts';
import { configTable, rowKey } from './config-tables.ts';
import { joinFiles, MANIFEST, SNAPSHOT_EXTENSIONS, SNAPSHOT_FOLDERS } from './layout.ts';
import { migrateDocument, operationReferencesAsKeys } from './migrate-format.ts';
import { normalizeDocument } from './normalize.ts';
import { CONFIG_SECTIONS, SNAPSHOT_VERSION, type SnapshotDocument } from './types.ts';
import { collectionFileSchema, configFileSchemas, documentSchema, manifestFileSchema, roleFileSchema, validateFile } from './validate.ts';

/**
 * Parses one file's text (JSON or YAML); a syntax error names the file and the line. YAML is read with
 * js-yaml, 5-10 times faster than the `yaml` package that writes it (a 50-collection snapshot: ~60 ms
 * against ~300-700 ms, most of `tessera diff`; docs/performance.md, "CLI"), with YAML 1.2's core schema
 * as `yaml` writes it: `2026-01-01` stays a string, `<<` is no merge key.
 */
export function parseFileText(text: string, file: string): unknown {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : load(text, { schema: CORE_SCHEMA, filename: file });
  } catch (error) {
    throw new InvalidPayloadError(`${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`, { file });
  }
}

function snapshotFilesIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((entry) => SNAPSHOT_EXTENSIONS.some((extension) => entry.endsWith(extension)))
    .sort();
}

function readParsed(folder: string, relative: string): unknown {
  return parseFileText(readFileSync(path.join(folder, relative), 'utf8'), relative);
}

/** Checks what files cannot check alone: duplicates and references between sections. */
export function checkReferences(document: SnapshotDocument, source: string): void {
  const fail = (where: string, message: string): never => {
    throw new InvalidPayloadError(`${source}: ${where}: ${message}`, { field: where });
  };
  const collections = new Set<string>();
  for (const collection of document.collections) {
    if (collections.has(collection.collection)) fail(`collections/${collection.collection}`, 'the collection is listed twice.');
    if (isSystemCollection(collection.collection)) fail(`collections/${collection.collection}`, 'system collections are not part of a snapshot.');
    collections.add(collection.collection);
  }
  const fields = new Map<string, string>();
  for (const field of document.fields) {
    const where = `collections/${field.collection} field ${field.field}`;
    if (!collections.has(field.collection)) fail(where, `collection "${field.collection}" is not in the snapshot.`);
    if (fields.has(`${field.collection}.${field.field}`)) fail(where, 'the field is listed twice.');
    fields.set(`${field.collection}.${field.field}`, field.type);
  }
  const knownCollection = (name: string) => collections.has(name) || isSystemCollection(name);
  const relations = new Set<string>();
  for (const relation of document.relations) {
    const where = `collections/${relation.collection} relation ${relation.field}`;
    const type = fields.get(`${relation.collection}.${relation.field}`);
    if (!type || type === 'alias') fail(where, `"${relation.field}" must be a field with a column of "${relation.collection}".`);
    if (relations.has(`${relation.collection}.${relation.field}`)) fail(where, 'the relation is listed twice.');
    relations.add(`${relation.collection}.${relation.field}`);
    if (relation.related_collection && !knownCollection(relation.related_collection)) fail(where, `related_collection "${relation.related_collection}" is not in the snapshot.`);
    const oneField = relation.meta?.one_field;
    if (typeof oneField === 'string' && relation.related_collection && fields.get(`${relation.related_collection}.${oneField}`) !== 'alias') {
      fail(where, `meta.one_field "${oneField}" must be listed as an alias field of "${relation.related_collection}" (type: alias, special o2m, m2m or translations).`);
    }
  }
  const roles = new Set((document.roles ?? []).map((role) => String(role.name)));
  for (const section of CONFIG_SECTIONS) {
    const rows = document[section];
    if (!rows) continue;
    const table = configTable(section);
    const seen = new Set<string>();
    for (const row of rows) {
      const key = rowKey(table, row);
      const where = `${section} ${table.label(row) || key}`;
      if (seen.has(key)) fail(where, `two entries share the identity ${key} (${table.key.join(' + ')}).`);
      seen.add(key);
      if (table.roleColumns && row.role !== null && document.roles && !roles.has(String(row.role))) fail(where, `role "${String(row.role)}" is not in the snapshot.`);
      if ((section === 'permissions' || section === 'presets') && row.collection && !knownCollection(String(row.collection))) {
        fail(where, `collection "${String(row.collection)}" is not in the snapshot.`);
      }
    }
  }
  const flows = new Set((document.flows ?? []).map((flow) => flow.id));
  const operationKeys = new Set((document.operations ?? []).map((operation) => `${String(operation.flow)} ${String(operation.key)}`));
  const knownOperation = (flow: unknown, key: unknown) => key === null || key === undefined || operationKeys.has(`${String(flow)} ${String(key)}`);
  for (const operation of document.operations ?? []) {
    const where = `operations ${String(operation.key)}`;
    if (!flows.has(operation.flow)) fail(where, `flow ${String(operation.flow)} is not in the snapshot.`);
    for (const column of ['resolve', 'reject'] as const) if (!knownOperation(operation.flow, operation[column])) fail(where, `${column} "${String(operation[column])}" is not an operation of the same flow.`);
  }
  for (const flow of document.flows ?? []) {
    if (document.operations && !knownOperation(flow.id, flow.operation)) fail(`flows ${String(flow.name)}`, `operation "${String(flow.operation)}" is not an operation of this flow.`);
  }
  const dashboards = new Set((document.dashboards ?? []).map((dashboard) => dashboard.id));
  for (const panel of document.panels ?? []) if (!dashboards.has(panel.dashboard)) fail(`panels ${String(panel.id)}`, `dashboard ${String(panel.dashboard)} is not in the snapshot.`);
}

/** Reads a snapshot folder (the layout of layout.ts): every file validated, then joined and checked as a whole. */
export function loadSnapshotFolder(folder: string): SnapshotDocument {
  const manifestName = snapshotFilesIn(folder).find((entry) => entry.slice(0, entry.lastIndexOf('.')) === MANIFEST);
  if (!manifestName) throw new InvalidPayloadError(`${folder}: no ${MANIFEST}.yaml here; is this a snapshot folder? (tessera snapshot writes one)`, { file: folder });
  const manifest = validateFile(manifestFileSchema, readParsed(folder, manifestName), manifestName);
  if (manifest.version !== SNAPSHOT_VERSION) migrateDocument({ version: manifest.version }, manifestName);
  const [collectionsDir, rolesDir, configDir] = SNAPSHOT_FOLDERS;
  const collections = snapshotFilesIn(path.join(folder, collectionsDir)).map((entry) => {
    const file = `${collectionsDir}/${entry}`;
    return validateFile(collectionFileSchema, readParsed(folder, file), file);
  });
  const roles = snapshotFilesIn(path.join(folder, rolesDir)).map((entry) => {
    const file = `${rolesDir}/${entry}`;
    return validateFile(roleFileSchema, readParsed(folder, file), file);
  });
  const config = new Map<string, Record<string, any>>();
  for (const entry of snapshotFilesIn(path.join(folder, configDir))) {
    const file = `${configDir}/${entry}`;
    const kind = entry.slice(0, entry.lastIndexOf('.'));
    const schema = configFileSchemas[kind];
    if (!schema) throw new InvalidPayloadError(`${file}: unknown configuration file; expected one of: ${Object.keys(configFileSchemas).join(', ')}.`, { file });
    config.set(kind, validateFile(schema, readParsed(folder, file), file));
  }
  const document = operationReferencesAsKeys(joinFiles(manifest, collections, roles, config));
  checkReferences(document, folder);
  return normalizeDocument(document);
}

/** Reads a whole document (an HTTP body or a single-file snapshot): migrated to the current version, validated, checked. */
export function parseSnapshotDocument(value: unknown, source: string): SnapshotDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidPayloadError(`${source}: a snapshot must be an object with version, vendor, collections, fields and relations.`, { file: source });
  }
  const migrated = operationReferencesAsKeys(migrateDocument(value as Record<string, unknown>, source));
  const document = validateFile(documentSchema, migrated, source) as unknown as SnapshotDocument;
  checkReferences(document, source);
  return normalizeDocument(document);
}

/** Reads a snapshot folder, or a single .yaml/.json file holding a whole document. */
export function loadSnapshot(location: string): SnapshotDocument {
  if (!existsSync(location)) throw new InvalidPayloadError(`${location}: no such file or folder.`, { file: location });
  if (statSync(location).isDirectory()) return loadSnapshotFolder(location);
  return parseSnapshotDocument(parseFileText(readFileSync(location, 'utf8'), location), location);
}
