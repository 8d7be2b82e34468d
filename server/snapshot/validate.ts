import * as yup from 'yup';
import { InvalidPayloadError } from '../errors.ts';
import { collectionMetaSchema } from '../services/schema/collection-meta.ts';
import { fieldMetaSchema } from '../services/schema/field-payload.ts';
import { ON_DELETE_ACTIONS, relationMetaSchema } from '../services/schema/relation-payload.ts';
import { jsonObjectSchema, oneOfValues } from '../services/schema/yup-helpers.ts';
import { ACCOUNTABILITY_VALUES, PERMISSION_ACTIONS, WEBHOOK_ACTIONS, WEBHOOK_METHODS, WEBHOOK_STATUSES } from '../schema/system/constants.ts';
import { FIELD_TYPES } from '../schema/types.ts';
import { SETTINGS_COLUMNS } from './config-tables.ts';
import { validatePanelOptions } from '../insights/panel-options.ts';
import { refuseInheritedNames } from '../own-keys.ts';

const name = () => yup.string().strict().required();
const optionalText = () => yup.string().strict().nullable();
const uuid = () => yup.string().strict().uuid();
const flag = () => yup.boolean().strict();
const integer = () => yup.number().strict().integer();
const list = () => yup.array(yup.string().strict().required()).nullable();
const json = () => yup.mixed().nullable();

const columnSchema = yup
  .object({
    default_value: yup.mixed().nullable(),
    is_nullable: flag(),
    is_unique: flag(),
    is_indexed: flag().nullable(),
    is_primary_key: flag(),
    has_auto_increment: flag(),
    max_length: integer().min(1).max(10_485_760).nullable(),
    numeric_precision: integer().min(1).max(1000).nullable(),
    numeric_scale: integer().min(0).max(1000).nullable(),
  })
  .exact()
  .nullable();

const fieldShape = { field: name(), type: oneOfValues(FIELD_TYPES).required(), meta: fieldMetaSchema, schema: columnSchema };
const relationShape = {
  field: name(),
  related_collection: optionalText(),
  meta: relationMetaSchema,
  schema: yup.object({ on_delete: oneOfValues(ON_DELETE_ACTIONS) }).exact().nullable(),
};
const collectionShape = { collection: name(), meta: collectionMetaSchema, schema: yup.object({ name: yup.string() }).exact().nullable() };

const roleShape = {
  name: name(),
  icon: optionalText(),
  description: optionalText(),
  app_access: flag(),
  admin_access: flag(),
  ip_access: list(),
  enforce_tfa: flag(),
};
const permissionShape = {
  collection: name(),
  action: oneOfValues(PERMISSION_ACTIONS).required(),
  fields: list(),
  permissions: jsonObjectSchema(),
  validation: jsonObjectSchema(),
  presets: jsonObjectSchema(),
};
const presetShape = {
  collection: optionalText(),
  bookmark: optionalText(),
  search: optionalText(),
  layout: optionalText(),
  layout_query: json(),
  layout_options: json(),
  refresh_interval: integer().nullable(),
  filter: json(),
  icon: optionalText(),
  color: optionalText(),
};
/** An operation's key: resolve, reject and a flow's first operation name operations by it. */
const operationKey = () => yup.string().strict().matches(/^[A-Za-z0-9_$-]+$/, '${path} must be an operation key (letters, digits, _ and -)');
const operationShape = {
  // Files written before operations were keyed by flow + key carry the uuid; it is read, then dropped.
  id: uuid(),
  key: operationKey().required(),
  name: optionalText(),
  type: name(),
  position_x: integer().required(),
  position_y: integer().required(),
  options: json(),
  resolve: operationKey().nullable(),
  reject: operationKey().nullable(),
};
const flowShape = {
  id: uuid().required(),
  name: name(),
  icon: optionalText(),
  color: optionalText(),
  description: optionalText(),
  status: oneOfValues(['active', 'inactive'] as const),
  trigger: optionalText(),
  accountability: oneOfValues(ACCOUNTABILITY_VALUES),
  options: json(),
  operation: operationKey().nullable(),
};
const panelShape = {
  id: uuid().required(),
  name: optionalText(),
  icon: optionalText(),
  color: optionalText(),
  show_header: flag(),
  note: optionalText(),
  type: name(),
  position_x: integer().required(),
  position_y: integer().required(),
  width: integer().required(),
  height: integer().required(),
  options: json(),
};
/** A panel's type and options pass the same check as a write through /panels (server/insights/panel-options.ts). */
function panelRows(shape: yup.ObjectShape) {
  const panel = yup
    .object(shape)
    .exact()
    .test('panel-options', 'invalid panel options', function check(value) {
      if (!value) return true;
      try {
        validatePanelOptions(value.type, value.options);
        return true;
      } catch (error) {
        if (!(error instanceof InvalidPayloadError)) throw error;
        const field = error.extensions.field ?? 'options';
        return this.createError({ path: `${this.path}.${field}`, message: `${this.path}.${field}: ${error.message}` });
      }
    });
  return yup.array(panel).default(undefined);
}

const dashboardShape = { id: uuid().required(), name: name(), icon: optionalText(), note: optionalText(), color: optionalText() };
const webhookShape = {
  name: name(),
  method: oneOfValues(WEBHOOK_METHODS),
  url: name(),
  status: oneOfValues(WEBHOOK_STATUSES),
  data: flag(),
  headers: yup.array(yup.object({ header: name(), value: yup.string().strict().required() }).exact()).nullable(),
  actions: yup.array(oneOfValues(WEBHOOK_ACTIONS).required()).required(),
  collections: yup.array(name()).required(),
  was_active_before_deprecation: flag(),
  migrated_flow: uuid().nullable(),
};
const translationShape = { key: name(), language: name(), value: yup.string().strict().required() };
const folderShape = { id: uuid().required(), name: name(), parent: uuid().nullable() };
/** An extension by source, bundle and folder (extension-flags.ts), and whether it is on. */
const extensionShape = { source: oneOfValues(['local', 'module'] as const), bundle: optionalText(), folder: name(), enabled: flag().required() };
const settingsSchema = yup
  .object(Object.fromEntries(SETTINGS_COLUMNS.map((column) => [column, yup.mixed().nullable()])))
  .exact()
  .nullable();

const rows = (shape: yup.ObjectShape) => yup.array(yup.object(shape).exact()).default([]);

/** The manifest: tessera.yaml. */
export const manifestFileSchema = yup.object({ version: integer().min(1).required(), vendor: yup.string().strict().required() }).exact();

/** collections/<name>.yaml. */
export const collectionFileSchema = yup.object({ ...collectionShape, fields: rows(fieldShape), relations: rows(relationShape) }).exact();

/** roles/<name>.yaml (or the public role's file, `public: true` without `role`). */
export const roleFileSchema = yup
  .object({
    public: yup.boolean().strict().oneOf([true]),
    role: yup.object(roleShape).exact().default(undefined),
    permissions: rows(permissionShape),
    presets: rows(presetShape),
  })
  .exact()
  .test('role-or-public', 'a role file holds either `role` or `public: true`', (value) => Boolean(value.public) !== Boolean(value.role));

/** config/<kind>.yaml, by kind. */
export const configFileSchemas: Readonly<Record<string, yup.AnyObjectSchema>> = {
  folders: yup.object({ folders: rows(folderShape) }).exact(),
  flows: yup.object({ flows: rows({ ...flowShape, operations: rows(operationShape) }) }).exact(),
  dashboards: yup.object({ dashboards: rows({ ...dashboardShape, panels: panelRows(panelShape).default([]) }) }).exact(),
  webhooks: yup.object({ webhooks: rows(webhookShape) }).exact(),
  translations: yup.object({ translations: rows(translationShape) }).exact(),
  presets: yup.object({ presets: rows(presetShape) }).exact(),
  settings: yup.object({ settings: settingsSchema }).exact(),
  extensions: yup.object({ extensions: rows(extensionShape) }).exact(),
};

const withCollection = (shape: yup.ObjectShape) => ({ collection: name(), ...shape });
const withRole = (shape: yup.ObjectShape) => ({ role: optionalText(), ...shape });
const optionalRows = (shape: yup.ObjectShape) => yup.array(yup.object(shape).exact()).default(undefined);

/** A whole document in one piece (HTTP bodies, single-file snapshots), current version. */
export const documentSchema = yup
  .object({
    version: integer().required(),
    vendor: yup.string().strict().required(),
    collections: rows(collectionShape),
    fields: rows(withCollection(fieldShape)),
    relations: rows(withCollection(relationShape)),
    roles: optionalRows(roleShape),
    permissions: optionalRows(withRole(permissionShape)),
    presets: optionalRows(withRole(presetShape)),
    flows: optionalRows(flowShape),
    operations: optionalRows({ ...operationShape, flow: uuid().required() }),
    dashboards: optionalRows(dashboardShape),
    panels: panelRows({ ...panelShape, dashboard: uuid().required() }),
    webhooks: optionalRows(webhookShape),
    translations: optionalRows(translationShape),
    folders: optionalRows(folderShape),
    extensions: optionalRows(extensionShape),
    settings: settingsSchema.default(undefined),
  })
  .exact();

/**
 * Validates one file (or document) and returns its cast value; the error names the file and the path of
 * every problem: `collections/posts.yaml: fields[2].type must be one of …`.
 */
export function validateFile<S extends yup.AnyObjectSchema>(schema: S, value: unknown, file: string): yup.InferType<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidPayloadError(`${file}: the file must hold a mapping (key: value) at its top level.`, { file });
  }
  try {
    refuseInheritedNames(value);
  } catch (error) {
    const field = (error as InvalidPayloadError).extensions.field;
    throw new InvalidPayloadError(`${file}: ${(error as Error).message}`, { file, field });
  }
  try {
    return schema.validateSync(value, { abortEarly: false });
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const issues = (error.inner.length > 0 ? error.inner : [error]).map((issue) => ({ path: issue.path ?? '', message: issue.message }));
    const lines = issues.map((issue) => `${file}: ${issue.message}`);
    throw new InvalidPayloadError(lines.join('\n'), { file, field: issues[0]!.path, errors: issues });
  }
}
