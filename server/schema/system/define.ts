import type { FieldMeta, FieldType, SystemCollection, SystemField } from '../types.ts';

/** Options of {@link field}: storage facts and metadata side by side, every one optional. */
export interface FieldInit extends Partial<FieldMeta> {
  primaryKey?: boolean;
  nullable?: boolean;
  concealed?: boolean;
  relatedCollection?: string | null;
}

/** Options of {@link collection}: collection-level metadata, every one optional. */
export type CollectionInit = Partial<SystemCollection['meta']> & { singleton?: boolean; primary?: string };

/** One choice of a select interface, as `options.choices` holds it. */
export interface Choice {
  text: string;
  value: string | number | boolean | null;
}

const DEFAULT_INTERFACES: Record<FieldType, string | null> = {
  string: 'input',
  text: 'input-multiline',
  integer: 'input',
  bigInteger: 'input',
  float: 'input',
  decimal: 'input',
  boolean: 'boolean',
  date: 'datetime',
  time: 'datetime',
  dateTime: 'datetime',
  timestamp: 'datetime',
  json: 'input-code',
  csv: 'tags',
  uuid: 'input',
  hash: 'input-hash',
  alias: null,
  'geometry': 'map',
  'geometry.Point': 'map',
  'geometry.LineString': 'map',
  'geometry.Polygon': 'map',
  'geometry.MultiPoint': 'map',
  'geometry.MultiLineString': 'map',
  'geometry.MultiPolygon': 'map',
};

const DEFAULT_SPECIALS: Partial<Record<FieldType, FieldMeta['special']>> = {
  json: ['cast-json'],
  csv: ['cast-csv'],
  boolean: ['cast-boolean'],
  hash: ['hash', 'conceal'],
};

/** A field with Tessera's defaults filled in: nullable, visible, editable, full width, interface by type. */
export function field(name: string, type: FieldType, init: FieldInit = {}): SystemField {
  const { primaryKey = false, nullable = true, concealed, relatedCollection = null, ...meta } = init;
  const special = meta.special ?? DEFAULT_SPECIALS[type] ?? null;
  return {
    field: name,
    type,
    primaryKey,
    nullable,
    concealed: concealed ?? special?.includes('conceal') ?? false,
    relatedCollection,
    meta: {
      special,
      interface: meta.interface === undefined ? DEFAULT_INTERFACES[type] : meta.interface,
      options: meta.options ?? (type === 'json' ? { language: 'json' } : null),
      display: meta.display ?? null,
      display_options: meta.display_options ?? null,
      readonly: meta.readonly ?? false,
      hidden: meta.hidden ?? false,
      sort: meta.sort ?? null,
      width: meta.width ?? 'full',
      group: meta.group ?? null,
      translations: meta.translations ?? null,
      note: meta.note ?? null,
      conditions: meta.conditions ?? null,
      required: meta.required ?? false,
      validation: meta.validation ?? null,
      validation_message: meta.validation_message ?? null,
    },
  };
}

/** An auto-generated uuid primary key named `id`. */
export function uuidKey(): SystemField {
  return field('id', 'uuid', { primaryKey: true, nullable: false, special: ['uuid'], readonly: true, hidden: true });
}

/** An auto-incremented integer primary key named `id`. */
export function serialKey(): SystemField {
  return field('id', 'integer', { primaryKey: true, nullable: false, readonly: true, hidden: true });
}

/** A many-to-one field holding the key of an item in `related`. */
export function m2o(name: string, related: string, init: FieldInit & { keyType?: FieldType } = {}): SystemField {
  const { keyType = 'uuid', ...rest } = init;
  return field(name, keyType, {
    special: ['m2o'],
    interface: 'select-dropdown-m2o',
    ...rest,
    relatedCollection: related,
  });
}

/** A one-to-many alias field (no column): the reverse of an m2o on another collection. */
export function o2m(name: string, init: FieldInit = {}): SystemField {
  return field(name, 'alias', { special: ['o2m'], interface: 'list-o2m', ...init });
}

/** A many-to-one pointing at a user, filled with the caller on create; server-managed. */
export function userCreated(name = 'user_created'): SystemField {
  return m2o(name, 'tessera_users', { special: ['user-created', 'm2o'], readonly: true, width: 'half' });
}

/** A many-to-one pointing at a user, filled with the caller on every update; server-managed. */
export function userUpdated(name = 'user_updated'): SystemField {
  return m2o(name, 'tessera_users', { special: ['user-updated', 'm2o'], readonly: true, width: 'half' });
}

/** A timestamp set on create; server-managed. */
export function dateCreated(name = 'date_created', init: FieldInit = {}): SystemField {
  return field(name, 'timestamp', { special: ['date-created'], readonly: true, width: 'half', ...init });
}

/** A timestamp set on every update; server-managed. */
export function dateUpdated(name = 'date_updated', init: FieldInit = {}): SystemField {
  return field(name, 'timestamp', { special: ['date-updated'], readonly: true, width: 'half', ...init });
}

/** Choices for a select interface, labelled by capitalising each value unless labels are given. */
export function choices(
  values: readonly (string | null)[],
  labels: Partial<Record<string, string>> = {},
): { choices: Choice[] } {
  return {
    choices: values.map((value) => ({
      text: labels[String(value)] ?? (value === null ? 'None' : value.charAt(0).toUpperCase() + value.slice(1)),
      value,
    })),
  };
}

/** A select-dropdown interface over the given values. */
export function select(values: readonly (string | null)[], labels?: Partial<Record<string, string>>): FieldInit {
  return { interface: 'select-dropdown', options: choices(values, labels) };
}

/** A system collection: fields get their display order as `sort`, meta defaults to tracked and visible. */
export function collection(name: string, fields: SystemField[], init: CollectionInit = {}): SystemCollection {
  const primary = init.primary ?? fields.find((f) => f.primaryKey)?.field;
  if (!primary) throw new Error(`System collection ${name} has no primary key`);
  return {
    collection: name,
    primary,
    singleton: init.singleton ?? false,
    meta: {
      note: init.note ?? null,
      icon: init.icon ?? null,
      accountability: init.accountability === undefined ? 'all' : init.accountability,
      archive_field: init.archive_field ?? null,
      archive_value: init.archive_value ?? null,
      unarchive_value: init.unarchive_value ?? null,
      sort_field: init.sort_field ?? null,
      display_template: init.display_template ?? null,
    },
    fields: fields.map((f, index) => (f.meta.sort === null ? { ...f, meta: { ...f.meta, sort: index + 1 } } : f)),
  };
}

/** The required `collection` field that points a system row at a user collection (shares, versions, permissions …). */
export function collectionReference(): SystemField {
  return m2o('collection', 'tessera_collections', { keyType: 'string', nullable: false, required: true, interface: 'system-collection', width: 'half' });
}
