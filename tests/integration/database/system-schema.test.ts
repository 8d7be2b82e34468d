import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_TABLES } from '../../../migrations/20261121000001-system-schema.ts';
import * as constants from '../../../server/schema/system/constants.ts';
import { getSystemCollection, SYSTEM_COLLECTIONS } from '../../../server/schema/system/index.ts';
import { FIELD_WIDTHS, type FieldType, type SystemField } from '../../../server/schema/types.ts';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

/** The system collections SPEC.md §3 lists, in its order. */
const SPEC_COLLECTIONS = [
  'activity', 'collections', 'fields', 'files', 'folders', 'migrations', 'permissions', 'presets',
  'relations', 'revisions', 'roles', 'sessions', 'settings', 'users', 'webhooks', 'dashboards',
  'panels', 'notifications', 'shares', 'flows', 'operations', 'translations', 'versions', 'extensions',
].map((name) => `tessera_${name}`);

/** PostgreSQL data type each metadata type is stored as. */
const COLUMN_TYPES: Partial<Record<FieldType, string>> = {
  string: 'character varying', hash: 'character varying', text: 'text', csv: 'text', integer: 'integer',
  bigInteger: 'bigint', boolean: 'boolean', json: 'jsonb', uuid: 'uuid', timestamp: 'timestamp with time zone',
};

/** m2o fields without a foreign key on purpose (activity outlives its user). */
const WITHOUT_FOREIGN_KEY = new Set(['tessera_activity.user']);

/** Foreign keys that delete the child with its parent (ownership, SPEC.md §3); every other one sets null. */
const CASCADES = new Set([
  'tessera_fields.collection', 'tessera_shares.collection', 'tessera_shares.role', 'tessera_sessions.user',
  'tessera_sessions.share', 'tessera_permissions.role', 'tessera_presets.user', 'tessera_presets.role',
  'tessera_versions.collection', 'tessera_revisions.activity', 'tessera_revisions.version',
  'tessera_notifications.recipient', 'tessera_panels.dashboard', 'tessera_operations.flow',
]);

/** Spot checks of the rules above, spelled out. */
const IMPORTANT_ON_DELETE: Array<[string, 'CASCADE' | 'SET NULL']> = [
  ['tessera_users.role', 'SET NULL'],
  ['tessera_users.avatar', 'SET NULL'],
  ['tessera_permissions.role', 'CASCADE'],
  ['tessera_sessions.user', 'CASCADE'],
  ['tessera_operations.flow', 'CASCADE'],
  ['tessera_panels.dashboard', 'CASCADE'],
  ['tessera_revisions.activity', 'CASCADE'],
  ['tessera_files.folder', 'SET NULL'],
  ['tessera_files.uploaded_by', 'SET NULL'],
  ['tessera_folders.parent', 'SET NULL'],
  ['tessera_flows.operation', 'SET NULL'],
  ['tessera_settings.project_logo', 'SET NULL'],
];

/** Every CHECK-constrained enumeration and the constant it must equal. */
const ENUM_CHECKS: Array<[string, readonly (string | null)[]]> = [
  ['tessera_users.status', constants.USER_STATUSES],
  ['tessera_users.appearance', constants.APPEARANCES],
  ['tessera_settings.default_appearance', constants.APPEARANCES],
  ['tessera_webhooks.status', constants.WEBHOOK_STATUSES],
  ['tessera_webhooks.method', constants.WEBHOOK_METHODS],
  ['tessera_collections.accountability', constants.ACCOUNTABILITY_VALUES],
  ['tessera_relations.one_deselect_action', constants.DESELECT_ACTIONS],
  ['tessera_fields.width', FIELD_WIDTHS],
  ['tessera_settings.storage_asset_transform', constants.ASSET_TRANSFORM_MODES],
  ['tessera_settings.auth_password_policy', constants.PASSWORD_POLICY_NAMES],
  ['tessera_permissions.action', constants.PERMISSION_ACTIONS],
];

/** Fields the API never returns in clear. */
const CONCEALED = [
  'tessera_users.password', 'tessera_users.tfa_secret', 'tessera_users.token', 'tessera_users.auth_data',
  'tessera_shares.password', 'tessera_sessions.token',
];

/** A column as information_schema describes it. */
type Column = { table: string; column: string; type: string; nullable: boolean };

/** A primary key ('p'), foreign key ('f') or CHECK ('c') constraint as pg_constraint describes it. */
type Constraint = {
  kind: 'p' | 'f' | 'c';
  name: string;
  table: string;
  columns: string[];
  ref: string | null;
  refColumns: string[];
  onDelete: string;
  onUpdate: string;
  definition: string;
};

const COLUMNS_SQL = `
  select table_name as "table", column_name as "column", data_type as type, is_nullable = 'YES' as nullable
    from information_schema.columns where table_schema = current_schema() and table_name like 'tessera\\_%'`;

const ATTNAMES = (keys: string, rel: string) => `array(
  select a.attname::text from unnest(${keys}) with ordinality k(n, i)
    join pg_attribute a on a.attrelid = ${rel} and a.attnum = k.n order by k.i)`;
const RULE = (column: string) =>
  `case ${column} when 'c' then 'CASCADE' when 'n' then 'SET NULL' when 'a' then 'NO ACTION' else ${column}::text end`;

const CONSTRAINTS_SQL = `
  select c.contype as kind, c.conname as name, c.conrelid::regclass::text as "table",
         ${ATTNAMES('c.conkey', 'c.conrelid')} as columns,
         nullif(c.confrelid, 0)::regclass::text as ref, ${ATTNAMES('c.confkey', 'c.confrelid')} as "refColumns",
         ${RULE('c.confdeltype')} as "onDelete", ${RULE('c.confupdtype')} as "onUpdate",
         pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
   where n.nspname = current_schema() and c.contype in ('p', 'f', 'c')
     and c.conrelid::regclass::text like 'tessera\\_%'`;

let database: TestDatabase;
let client: pg.Client;
let columns: Column[];
let primaryKeys: Map<string, string[]>;
let foreignKeys: Constraint[];
let checks: Constraint[];

async function rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  return (await client.query(sql, values)).rows as T[];
}

/** The SQLSTATE a statement fails with, or undefined when it succeeds. */
async function failure(sql: string): Promise<string | undefined> {
  return client.query(sql).then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

/** The metadata of `tessera_x.field`. */
function fieldOf(key: string): SystemField {
  const [table = '', name] = key.split('.');
  const found = getSystemCollection(table)?.fields.find((f) => f.field === name);
  if (!found) throw new Error(`no metadata for ${key}`);
  return found;
}

const choiceValues = (f: SystemField) =>
  ((f.meta.options?.choices ?? []) as Array<{ value: unknown }>).map((c) => c.value).filter((v) => v !== null);
const foreignKey = (key: string) => foreignKeys.find((fk) => `${fk.table}.${fk.columns.join(',')}` === key);
const checkValues = (c: Constraint) => [...c.definition.matchAll(/'([^']*)'::/g)].map((m) => m[1]);

beforeAll(async () => {
  database = await createMigratedDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  columns = await rows<Column>(COLUMNS_SQL);
  const constraints = await rows<Constraint>(CONSTRAINTS_SQL);
  primaryKeys = new Map(constraints.filter((c) => c.kind === 'p').map((c) => [c.table, c.columns]));
  foreignKeys = constraints.filter((c) => c.kind === 'f');
  checks = constraints.filter((c) => c.kind === 'c');
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe('system collections and tables', () => {
  it('has exactly the 24 system collections of SPEC §3, in order', () => {
    expect(SYSTEM_COLLECTIONS.map((c) => c.collection)).toEqual(SPEC_COLLECTIONS);
  });

  it('has one tessera_ table per collection and no other', () => {
    const tables = [...new Set(columns.map((c) => c.table))].sort();
    expect(tables).toEqual([...SPEC_COLLECTIONS].sort());
    // The migration creates all but the migrator's own log table.
    expect([...SYSTEM_TABLES, 'tessera_migrations'].sort()).toEqual([...SPEC_COLLECTIONS].sort());
  });
});

describe.each(SYSTEM_COLLECTIONS.map((c) => [c.collection, c] as const))('%s', (name, collection) => {
  const byColumn = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column);

  it('has one column per non-alias field, with its type family and nullability', () => {
    const actual = columns
      .filter((c) => c.table === name)
      .map(({ column, type, nullable }) => ({ column, type, nullable }));
    const expected = collection.fields
      .filter((f) => f.type !== 'alias')
      .map((f) => ({ column: f.field, type: COLUMN_TYPES[f.type] ?? f.type, nullable: f.nullable }));
    expect(actual.sort(byColumn)).toEqual(expected.sort(byColumn));
    const aliases = collection.fields.filter((f) => f.type === 'alias').map((f) => f.field);
    expect(actual.filter((c) => aliases.includes(c.column))).toEqual([]);
  });

  it('has the primary key the metadata names', () => {
    expect(primaryKeys.get(name)).toEqual([collection.primary]);
    expect(collection.fields.filter((f) => f.primaryKey).map((f) => f.field)).toEqual([collection.primary]);
  });

  it('has a foreign key to the primary key of every related collection, and no unexplained one', () => {
    for (const f of collection.fields.filter((x) => x.relatedCollection !== null)) {
      const key = `${name}.${f.field}`;
      const fk = foreignKey(key);
      if (WITHOUT_FOREIGN_KEY.has(key)) {
        expect(fk, key).toBeUndefined();
        continue;
      }
      expect(fk, `${key} has no foreign key`).toBeDefined();
      const target = { key, ref: f.relatedCollection, refColumns: primaryKeys.get(f.relatedCollection ?? '') };
      expect({ key, ref: fk?.ref, refColumns: fk?.refColumns }).toEqual(target);
      expect({ key, onDelete: fk?.onDelete }).toEqual({ key, onDelete: CASCADES.has(key) ? 'CASCADE' : 'SET NULL' });
      if (!f.nullable) expect(fk?.onDelete, `${key} is NOT NULL`).not.toBe('SET NULL');
      if (f.relatedCollection === 'tessera_collections') expect(fk?.onUpdate, `${key} follows renames`).toBe('CASCADE');
    }
    // The only multi-column key: tessera_fields.group names a sibling field of the same collection.
    const unexplained = foreignKeys
      .filter((fk) => fk.table === name)
      .map((fk) => `${fk.table}.${fk.columns.join(',')}`)
      .filter((key) => key !== 'tessera_fields.collection,group' && fieldOf(key).relatedCollection === null);
    expect(unexplained).toEqual([]);
  });
});

describe('foreign key rules', () => {
  it.each(IMPORTANT_ON_DELETE)('%s is ON DELETE %s', (key, rule) => {
    expect(foreignKey(key)?.onDelete).toBe(rule);
  });

  it('names every key in CASCADES after a real foreign key', () => {
    for (const key of CASCADES) expect(foreignKey(key)?.onDelete, key).toBe('CASCADE');
  });
});

describe('enumerations', () => {
  it('has a CHECK constraint exactly for the listed enumerations', () => {
    const enumChecks = checks.filter((c) => checkValues(c).length > 0).map((c) => c.name).sort();
    expect(enumChecks).toEqual(ENUM_CHECKS.map(([key]) => `${key.replace('.', '_')}_check`).sort());
  });

  it.each(ENUM_CHECKS)('%s: CHECK = metadata choices = constant', (key, constant) => {
    const check = checks.find((c) => c.name === `${key.replace('.', '_')}_check`);
    expect(check, key).toBeDefined();
    const values = constant.filter((v) => v !== null);
    expect(checkValues(check as Constraint)).toEqual(values);
    expect(choiceValues(fieldOf(key))).toEqual(values);
  });

  it('allows the password policies none, weak and strong', () => {
    expect(constants.PASSWORD_POLICY_NAMES).toEqual(['none', 'weak', 'strong']);
  });
});

describe('concealed fields', () => {
  it('conceals exactly the secrets', () => {
    const concealed = SYSTEM_COLLECTIONS.flatMap((c) =>
      c.fields.filter((f) => f.concealed).map((f) => `${c.collection}.${f.field}`),
    );
    expect(concealed.sort()).toEqual([...CONCEALED].sort());
    for (const key of CONCEALED) expect(fieldOf(key).meta.special, key).toContain('conceal');
  });

  it.each(['tessera_users.password', 'tessera_shares.password'])('%s is a hash', (key) => {
    expect(fieldOf(key).type).toBe('hash');
    expect(fieldOf(key).meta.special).toContain('hash');
  });
});

describe('behaviour', () => {
  it('seeds one settings row with the project defaults', async () => {
    const settings = await rows<Record<string, unknown>>('select * from tessera_settings');
    expect(settings).toHaveLength(1);
    const expected = { project_name: 'Tessera', default_language: 'en-US', storage_asset_transform: 'all' };
    expect(settings[0]).toMatchObject({ id: 1, ...expected, auth_password_policy: 'none' });
    const { PROJECT_DEFAULTS, DEFAULT_LANGUAGE } = constants;
    expect([PROJECT_DEFAULTS.name, DEFAULT_LANGUAGE, PROJECT_DEFAULTS.assetTransform]).toEqual(Object.values(expected));
  });

  it('refuses a second settings row', async () => {
    expect(await failure('insert into tessera_settings (id) values (2)')).toBe('23514');
    expect(await failure('insert into tessera_settings default values')).toBe('23505');
  });

  it('refuses values outside an enumeration (user status banned, webhook method PUT)', async () => {
    const banned = `insert into tessera_users (email, status) values ('banned@example.com', 'banned')`;
    expect(await failure(banned)).toBe('23514');
    const put = `insert into tessera_webhooks (name, url, actions, collections, method)
                 values ('w', 'http://x', 'create', 'a', 'PUT')`;
    expect(await failure(put)).toBe('23514');
  });

  it('nulls users.role when the role is deleted', async () => {
    const [role] = await rows<{ id: string }>(`insert into tessera_roles (name) values ('Editors') returning id`);
    const [user] = await rows<{ id: string }>(
      `insert into tessera_users (email, role) values ('editor@example.com', $1) returning id`,
      [role?.id],
    );
    await client.query('delete from tessera_roles where id = $1', [role?.id]);
    expect(await rows('select role from tessera_users where id = $1', [user?.id])).toEqual([{ role: null }]);
  });

  it('deletes the operations of a deleted flow', async () => {
    const [flow] = await rows<{ id: string }>(`insert into tessera_flows (name) values ('Notify') returning id`);
    const [operation] = await rows<{ id: string }>(
      `insert into tessera_operations (key, type, position_x, position_y, flow)
       values ('log', 'log', 0, 0, $1) returning id`,
      [flow?.id],
    );
    await client.query('update tessera_flows set operation = $1 where id = $2', [operation?.id, flow?.id]);
    await client.query('delete from tessera_flows where id = $1', [flow?.id]);
    expect(await rows('select id from tessera_operations where flow = $1', [flow?.id])).toEqual([]);
  });
});
