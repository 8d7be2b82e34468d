import { useGetIdentity } from '@refinedev/core';
import type { Identity } from '../../providers/auth-provider.ts';

/** Whether the signed-in user's role has admin access (schema changes are for administrators only). */
export function useIsAdmin(): { isAdmin: boolean; loading: boolean } {
  const { data, isLoading } = useGetIdentity<Identity>();
  return { isAdmin: Boolean(data?.role?.admin_access), loading: isLoading };
}
