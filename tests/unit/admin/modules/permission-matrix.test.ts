import { describe, expect, it } from 'vitest';
import {
  ALL_ACCESS,
  APP_DEFAULT_ACTIONS,
  cellState,
  collectionState,
  indexRows,
  planWrites,
  rowTargets,
  toCustomPermission,
  type PermissionRow,
} from '../../../../admin/src/modules/roles/permission-matrix.ts';
import { APP_DEFAULT_PERMISSIONS } from '../../../../server/permissions/default-permissions.ts';

const ROLE = '8d9f1c2e-0000-4000-8000-000000000001';

function row(id: number, collection: string, action: PermissionRow['action'], rest: Partial<PermissionRow> = {}): PermissionRow {
  return { id, role: ROLE, collection, action, fields: ['*'], permissions: null, validation: null, presets: null, ...rest };
}

describe('permission matrix: cell states', () => {
  it('reads no row as none, every field without rules as all, anything else as custom', () => {
    expect(cellState(undefined)).toBe('none');
    expect(cellState(row(1, 'articles', 'read'))).toBe('all');
    expect(cellState(row(1, 'articles', 'read', { fields: '*', permissions: {}, validation: {} }))).toBe('all');
    expect(cellState(row(1, 'articles', 'read', { fields: ['id', 'title'] }))).toBe('custom');
    expect(cellState(row(1, 'articles', 'read', { fields: 'id,title' }))).toBe('custom');
    expect(cellState(row(1, 'articles', 'read', { permissions: { status: { _eq: 'published' } } }))).toBe('custom');
    expect(cellState(row(1, 'articles', 'create', { presets: { status: 'draft' } }))).toBe('custom');
    expect(cellState(row(1, 'articles', 'read', { fields: null }))).toBe('custom');
  });

  it('turns a row into drawer settings and back without losing anything', () => {
    const stored = row(3, 'articles', 'update', { fields: 'title,body', permissions: { owner: { _eq: '$CURRENT_USER' } }, validation: { title: { _nnull: true } }, presets: { status: 'draft' } });
    const setting = toCustomPermission(stored);
    expect(setting).toEqual({ fields: ['title', 'body'], permissions: { owner: { _eq: '$CURRENT_USER' } }, validation: { title: { _nnull: true } }, presets: { status: 'draft' } });
    expect(planWrites(ROLE, indexRows([stored]), [{ collection: 'articles', action: 'update', setting }])).toEqual([]);
  });

  it('summarises a collection row as all, none or mixed', () => {
    const index = indexRows(['create', 'read', 'update', 'delete', 'share'].map((action, i) => row(i + 1, 'articles', action as PermissionRow['action'])));
    expect(collectionState(index, 'articles')).toBe('all');
    expect(collectionState(index, 'authors')).toBe('none');
    expect(collectionState(indexRows([row(1, 'authors', 'read')]), 'authors')).toBe('mixed');
  });
});

describe('permission matrix: writes', () => {
  it('creates a row with every field for "all" on an empty cell', () => {
    expect(planWrites(ROLE, indexRows([]), [{ collection: 'articles', action: 'read', setting: ALL_ACCESS }])).toEqual([
      { kind: 'create', rows: [{ role: ROLE, collection: 'articles', action: 'read', fields: ['*'], permissions: null, validation: null, presets: null }] },
    ]);
  });

  it('deletes the row for "none", and does nothing for a cell that is already none', () => {
    const index = indexRows([row(7, 'articles', 'delete')]);
    expect(planWrites(ROLE, index, [{ collection: 'articles', action: 'delete', setting: null }])).toEqual([{ kind: 'delete', ids: [7] }]);
    expect(planWrites(ROLE, index, [{ collection: 'articles', action: 'read', setting: null }])).toEqual([]);
  });

  it('updates a custom row to "all", clearing its rules', () => {
    const index = indexRows([row(4, 'articles', 'read', { fields: ['id'], permissions: { status: { _eq: 'published' } } })]);
    expect(planWrites(ROLE, index, [{ collection: 'articles', action: 'read', setting: ALL_ACCESS }])).toEqual([
      { kind: 'update', id: 4, data: { fields: ['*'], permissions: null, validation: null, presets: null } },
    ]);
  });

  it('stores validation and presets only for create and update', () => {
    const setting = { fields: ['title'], permissions: { owner: { _eq: '$CURRENT_USER' } }, validation: { title: { _nnull: true } }, presets: { status: 'draft' } };
    const [write] = planWrites(ROLE, indexRows([]), [
      { collection: 'articles', action: 'delete', setting },
      { collection: 'articles', action: 'create', setting },
    ]);
    expect(write).toEqual({
      kind: 'create',
      rows: [
        { role: ROLE, collection: 'articles', action: 'delete', fields: ['title'], permissions: { owner: { _eq: '$CURRENT_USER' } }, validation: null, presets: null },
        { role: ROLE, collection: 'articles', action: 'create', fields: ['title'], permissions: { owner: { _eq: '$CURRENT_USER' } }, validation: { title: { _nnull: true } }, presets: { status: 'draft' } },
      ],
    });
  });

  it('sets a whole collection in at most one delete, updates, and one create', () => {
    const index = indexRows([row(1, 'articles', 'read', { fields: ['id'] }), row(2, 'articles', 'share')]);
    const writes = planWrites(ROLE, index, rowTargets('articles', 'all'));
    expect(writes).toEqual([
      { kind: 'update', id: 1, data: { fields: ['*'], permissions: null, validation: null, presets: null } },
      { kind: 'create', rows: ['create', 'update', 'delete'].map((action) => ({ role: ROLE, collection: 'articles', action, fields: ['*'], permissions: null, validation: null, presets: null })) },
    ]);
    expect(planWrites(ROLE, index, rowTargets('articles', 'none'))).toEqual([{ kind: 'delete', ids: [1, 2] }]);
  });

  it('treats the same fields in another order as unchanged', () => {
    const index = indexRows([row(5, 'articles', 'read', { fields: 'title,id' })]);
    expect(planWrites(ROLE, index, [{ collection: 'articles', action: 'read', setting: { ...ALL_ACCESS, fields: ['id', 'title'] } }])).toEqual([]);
  });
});

describe('permission matrix: app defaults', () => {
  it('lists exactly the collections and actions the server grants app users without stored rows', () => {
    const server: Record<string, string[]> = {};
    for (const permission of APP_DEFAULT_PERMISSIONS) (server[permission.collection] ??= []).push(permission.action);
    const admin = Object.fromEntries(Object.entries(APP_DEFAULT_ACTIONS).map(([collection, actions]) => [collection, [...actions].sort()]));
    expect(admin).toEqual(Object.fromEntries(Object.entries(server).map(([collection, actions]) => [collection, actions.sort()])));
  });
});
