import { useTranslation } from '@refinedev/core';
import { Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useIsAdmin } from './use-admin.ts';

/** Shows its children to administrators only; anyone else gets a 403 page instead of controls that would fail. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { translate } = useTranslation();
  const { isAdmin, loading } = useIsAdmin();
  if (loading) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (!isAdmin) return <Result status="403" title="403" subTitle={translate('shared.adminOnly')} />;
  return <>{children}</>;
}
