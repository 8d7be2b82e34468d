import { describe, expect, it } from 'vitest';
import { narrows } from '../../../server/snapshot/data-loss.ts';
import { joinFiles, splitDocument } from '../../../server/snapshot/layout.ts';
import { parseSnapshotDocument } from '../../../server/snapshot/load-snapshot.ts';
import { formatPlan } from '../../../server/snapshot/print-plan.ts';
import { maskSecrets, resolveSecrets } from '../../../server/snapshot/secrets.ts';
import { formatValue, renderSnapshot } from '../../../server/snapshot/serialize.ts';
import type { SnapshotDocument, SnapshotField } from '../../../server/snapshot/types.ts';

const minimal = {
  version: 2,
  vendor: 'postgres',
  collections: [{ collection: 'posts', meta: { icon: 'article' }, schema: { name: 'posts' } }],
  fields: [
    { collection: 'posts', field: 'title', type: 'string', meta: { required: true }, schema: { max_length: 80 } },
    { collection: 'posts', field: 'id', type: 'integer', schema: { is_primary_key: true } },
  ],
  relations: [],
  roles: [{ name: 'Editor' }],
  permissions: [{ role: 'Editor', collection: 'posts', action: 'read', fields: ['*'] }],
};

describe('snapshot documents', () => {
  it('fill defaults and sort, so a short hand-written file and a full snapshot compare equal', () => {
    const document = parseSnapshotDocument(minimal, 'test');
    expect(document.fields.map((field) => field.field)).toEqual(['id', 'title']);
    expect(document.fields[0]!.schema).toEqual({ default_value: null, is_nullable: false, is_unique: true, is_indexed: false, is_primary_key: true, has_auto_increment: true, max_length: null, numeric_precision: null, numeric_scale: null });
    expect(document.fields[1]!.meta).toMatchObject({ required: true, interface: 'input', width: 'full', special: null });
    expect(document.roles![0]).toEqual({ name: 'Editor', icon: 'supervised_user_circle', description: null, app_access: true, admin_access: false, ip_access: null, enforce_tfa: false });
    expect(parseSnapshotDocument(JSON.parse(JSON.stringify(document)), 'again')).toEqual(document);
  });

  it('render byte-identically whatever the key order, with sorted keys and no YAML anchors', () => {
    const document = parseSnapshotDocument(minimal, 'test');
    const shuffled = JSON.parse(JSON.stringify(document), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(renderSnapshot(shuffled, 'yaml')).toEqual(renderSnapshot(document, 'yaml'));
    const shared = { a: 1 };
    expect(formatValue({ z: shared, b: shared }, 'yaml')).toBe('b:\n  a: 1\nz:\n  a: 1\n');
  });

  it('split into one file per collection and role, and join back to the same document', () => {
    const document = parseSnapshotDocument(minimal, 'test');
    const files = splitDocument(document);
    expect([...files.keys()]).toEqual(['tessera', 'collections/posts', 'roles/editor', 'roles/public']);
    const collections = [files.get('collections/posts') as Record<string, unknown>];
    const roles = [files.get('roles/editor'), files.get('roles/public')] as Record<string, unknown>[];
    const joined = joinFiles(files.get('tessera') as Record<string, unknown>, collections, roles, new Map());
    expect(parseSnapshotDocument(joined, 'joined')).toEqual(document);
  });

  it('name the path of every problem', () => {
    const bad = { ...minimal, fields: [{ collection: 'posts', field: 'id', type: 'number' }], roles: [{ name: 3 }] };
    expect(() => parseSnapshotDocument(bad, 'snap.yaml')).toThrow(/snap\.yaml: fields\[0\]\.type must be one of the following values[^]*snap\.yaml: roles\[0\]\.name must be a `string` type/);
    expect(() => parseSnapshotDocument({ ...minimal, permissions: [{ role: 'Writer', collection: 'posts', action: 'read' }] }, 'snap.yaml')).toThrow('snap.yaml: permissions posts read: role "Writer" is not in the snapshot.');
    expect(() =>
      parseSnapshotDocument({ ...minimal, relations: [{ collection: 'posts', field: 'title', related_collection: 'authors' }] }, 'snap.yaml'),
    ).toThrow('related_collection "authors" is not in the snapshot');
  });

  it('migrate version 1 (schema only, as /collections, /fields and /relations return it) forward', () => {
    const v1 = {
      version: 1,
      directus: '11.0.0',
      vendor: 'postgres',
      collections: [{ collection: 'posts', meta: { collection: 'posts', icon: 'article', system: false }, schema: { name: 'posts' } }],
      fields: [
        { collection: 'posts', field: 'id', type: 'integer', meta: { id: 7, collection: 'posts', field: 'id', hidden: true }, schema: { name: 'id', table: 'posts', data_type: 'integer', is_primary_key: true, has_auto_increment: true, foreign_key_table: null } },
      ],
      relations: [],
    };
    const document = parseSnapshotDocument(v1, 'v1.json');
    expect(document.version).toBe(2);
    expect(document.fields[0]).toMatchObject({ field: 'id', meta: { hidden: true }, schema: { is_primary_key: true } });
    expect(document.roles).toBeUndefined();
    expect(() => parseSnapshotDocument({ ...v1, version: 3 }, 'v3.json')).toThrow('v3.json: snapshot version 3 was written by a newer Tessera; this one reads up to version 2.');
  });
});

describe('secrets', () => {
  const document = {
    version: 2,
    vendor: 'postgres',
    collections: [],
    fields: [],
    relations: [],
    settings: { mapbox_key: 'pk.secret', project_name: 'P' },
    webhooks: [{ name: 'Hook', headers: [{ header: 'Authorization', value: 'Bearer x' }, { header: 'Accept', value: 'json' }] }],
    flows: [{ id: 'f', name: 'Sync', options: { nested: { password: 'p', user: 'u' } } }],
  } as unknown as SnapshotDocument;

  it('mask values under secret-looking keys and headers as ${env:NAME}, and resolve them back', () => {
    const masked = maskSecrets(document);
    expect(masked.settings).toEqual({ mapbox_key: '${env:TESSERA_SETTINGS_MAPBOX_KEY}', project_name: 'P' });
    expect(masked.webhooks![0]!.headers).toEqual([{ header: 'Authorization', value: '${env:TESSERA_WEBHOOK_HOOK_AUTHORIZATION}' }, { header: 'Accept', value: 'json' }]);
    expect(masked.flows![0]!.options).toEqual({ nested: { password: '${env:TESSERA_FLOW_SYNC_NESTED_PASSWORD}', user: 'u' } });
    const env = { TESSERA_SETTINGS_MAPBOX_KEY: 'pk.secret', TESSERA_WEBHOOK_HOOK_AUTHORIZATION: 'Bearer x', TESSERA_FLOW_SYNC_NESTED_PASSWORD: 'p' };
    expect(resolveSecrets(masked, env, { strict: true }).document).toEqual(document);
    expect(() => resolveSecrets(masked, {}, { strict: true })).toThrow(/TESSERA_SETTINGS_MAPBOX_KEY \(settings\.mapbox_key\)/);
    expect(resolveSecrets(masked, {}, { strict: false }).missing).toHaveLength(3);
  });
});

describe('data-loss rules', () => {
  const field = (type: string, schema: Partial<NonNullable<SnapshotField['schema']>> = {}): SnapshotField =>
    ({ collection: 'c', field: 'f', type, meta: {}, schema: { max_length: type === 'string' ? 255 : null, numeric_precision: type === 'decimal' ? 10 : null, numeric_scale: type === 'decimal' ? 5 : null, ...schema } }) as SnapshotField;

  it.each([
    ['integer', 'bigInteger', false],
    ['string', 'text', false],
    ['text', 'string', true],
    ['bigInteger', 'integer', true],
    ['json', 'text', false],
    ['text', 'json', true],
  ])('%s → %s narrows: %s', (from, to, expected) => {
    expect(narrows(field(from), field(to))).toBe(expected);
  });

  it('flags a shorter varchar and less decimal precision, not longer ones', () => {
    expect(narrows(field('string'), field('string', { max_length: 100 }))).toBe(true);
    expect(narrows(field('string'), field('string', { max_length: 500 }))).toBe(false);
    expect(narrows(field('decimal'), field('decimal', { numeric_precision: 8 }))).toBe(true);
    expect(narrows(field('decimal'), field('decimal', { numeric_precision: 12, numeric_scale: 5 }))).toBe(false);
  });

  it('prints plans grouped, each change spelled out, losses flagged', () => {
    const text = formatPlan({
      unresolved: [],
      steps: [
        { kind: 'field', action: 'update', group: 'collection posts', name: 'posts.title', changes: [{ path: 'schema.max_length', from: 255, to: 80 }], dataLoss: { count: 1203, message: 'narrows field title (string(255) → string(80)): 1,203 non-null values' } },
        { kind: 'permissions', action: 'create', group: 'role Editor', name: 'posts read', changes: [] },
      ],
    });
    expect(text).toBe(
      [
        'collection posts',
        '  ~ change field posts.title',
        '      schema.max_length: 255 → 80',
        '      ! DATA LOSS: narrows field title (string(255) → string(80)): 1,203 non-null values',
        'role Editor',
        '  + create permission posts read',
        '',
        '1 to create, 1 to change, 0 to drop (1 loses data).',
      ].join('\n'),
    );
  });
});
