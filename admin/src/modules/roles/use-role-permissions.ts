import { useDataProvider, useList } from '@refinedev/core';
import { useCallback, useMemo } from 'react';
import { indexRows, planWrites, type CellTarget, type PermissionIndex, type PermissionRow, type PermissionWrite } from './permission-matrix.ts';

/** The role a matrix edits: a role id, or null for the public (no user). */
export type MatrixRole = string | null;

/** Runs planned writes in order: deletes in one request, updates one by one, creates in one request. */
async function runWrites(api: ReturnType<ReturnType<typeof useDataProvider>>, writes: readonly PermissionWrite[]): Promise<void> {
  for (const write of writes) {
    if (write.kind === 'delete') await api.deleteMany!({ resource: 'permissions', ids: write.ids });
    else if (write.kind === 'update') await api.update({ resource: 'permissions', id: write.id, variables: write.data });
    else await api.create({ resource: 'permissions', variables: write.rows });
  }
}

/** The stored permission rows of a role, and a way to bring cells to new settings. */
export function useRolePermissions(role: MatrixRole) {
  const dataProvider = useDataProvider();
  const { result, query } = useList<PermissionRow>({
    resource: 'permissions',
    pagination: { mode: 'off' },
    meta: { filter: role === null ? { role: { _null: true } } : { role: { _eq: role } } },
  });
  const index: PermissionIndex = useMemo(() => indexRows(result.data ?? []), [result.data]);

  const apply = useCallback(
    async (targets: CellTarget[]) => {
      const writes = planWrites(role, index, targets);
      try {
        await runWrites(dataProvider(), writes);
      } finally {
        await query.refetch();
      }
    },
    [dataProvider, index, query, role],
  );

  return { index, loading: query.isLoading, apply };
}
