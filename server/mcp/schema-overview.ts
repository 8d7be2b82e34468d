import { CollectionsService } from '../services/collections-service.ts';
import { FieldsService } from '../services/fields-service.ts';
import { RelationsService } from '../services/relations-service.ts';
import type { ToolContext } from './tool-kit.ts';

type Row = Record<string, unknown>;

/** The user collections the caller may see: names, folders and notes (the `schema` tool without keys). */
export interface SchemaList {
  collections: string[];
  collection_folders: string[];
  notes: Record<string, string>;
}

/** One field as a model needs it: its type and what constrains or relates it. */
export interface FieldSummary {
  type: unknown;
  primary_key?: true;
  required?: true;
  readonly?: true;
  note?: string;
  interface?: { type: string; choices?: unknown[] };
  relation?: Row;
}

function meta(row: Row): Row {
  return (row.meta as Row | null) ?? {};
}

/** The schema services as the caller: they show only the collections, fields and relations it may see. */
function services(tools: ToolContext) {
  const context = tools.app.servicesContext(tools.accountability);
  return { collections: new CollectionsService(context, tools.app.schema), fields: new FieldsService(context, tools.app.schema), relations: new RelationsService(context, tools.app.schema) };
}

/** The caller's user collections, Directus's lightweight overview shape. */
export async function listSchema(tools: ToolContext): Promise<SchemaList> {
  const list: SchemaList = { collections: [], collection_folders: [], notes: {} };
  for (const collection of await services(tools).collections.readAll()) {
    const name = String(collection.collection);
    if (meta(collection).system === true || name.startsWith('tessera_')) continue;
    (collection.schema ? list.collections : list.collection_folders).push(name);
    const note = meta(collection).note;
    if (typeof note === 'string' && note !== '') list.notes[name] = note;
  }
  return list;
}

/** How a field relates to other collections, from the relations the caller may see. */
function relationOf(collection: string, field: string, special: unknown[], relations: readonly Row[]): Row | undefined {
  const many = relations.find((relation) => relation.collection === collection && relation.field === field);
  if (many) return { type: 'm2o', collection: many.related_collection };
  const one = relations.find((relation) => meta(relation).one_collection === collection && meta(relation).one_field === field);
  if (!one) return undefined;
  const junctionField = meta(one).junction_field;
  if (special.includes('m2a')) return { type: 'm2a', junction: { collection: one.collection, many_field: one.field, junction_field: junctionField } };
  if (typeof junctionField === 'string') {
    const target = relations.find((relation) => relation.collection === one.collection && relation.field === junctionField);
    return { type: 'm2m', collection: target?.related_collection ?? null, junction: { collection: one.collection, many_field: one.field, junction_field: junctionField } };
  }
  return { type: 'o2m', collection: one.collection, many_field: one.field };
}

function summarize(field: Row, relations: readonly Row[]): FieldSummary {
  const fieldMeta = meta(field);
  const summary: FieldSummary = { type: field.type };
  if ((field.schema as Row | null)?.is_primary_key === true) summary.primary_key = true;
  if (fieldMeta.required === true) summary.required = true;
  if (fieldMeta.readonly === true) summary.readonly = true;
  if (typeof fieldMeta.note === 'string' && fieldMeta.note !== '') summary.note = fieldMeta.note;
  if (typeof fieldMeta.interface === 'string') {
    const choices = (fieldMeta.options as Row | null)?.choices;
    summary.interface = { type: fieldMeta.interface, ...(Array.isArray(choices) ? { choices: choices.map((choice) => (choice as Row)?.value ?? choice) } : {}) };
  }
  const special = Array.isArray(fieldMeta.special) ? fieldMeta.special : [];
  const relation = relationOf(String(field.collection), String(field.field), special, relations);
  if (relation) summary.relation = relation;
  return summary;
}

/**
 * The fields of each named collection the caller may see, by collection and field (the `schema` tool with
 * keys); a collection it may not see is left out, as one that does not exist.
 */
export async function describeCollections(tools: ToolContext, names: readonly string[]): Promise<Record<string, Record<string, FieldSummary>>> {
  const { fields, relations } = services(tools);
  const wanted = new Set(names);
  const visible = (await fields.readAll()).filter((field) => wanted.has(String(field.collection)));
  const relationRows = await relations.readAll();
  const overview: Record<string, Record<string, FieldSummary>> = Object.create(null);
  for (const field of visible) {
    const collection = String(field.collection);
    overview[collection] ??= Object.create(null);
    overview[collection]![String(field.field)] = summarize(field, relationRows);
  }
  return overview;
}

export { services as schemaServices };
