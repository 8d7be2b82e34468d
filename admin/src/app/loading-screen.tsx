import { useTranslate } from '@refinedev/core';
import { Flex, Spin, Typography } from 'antd';
import { Brand } from './layout/brand.tsx';

/** The whole-page loading state (signing in, loading the app): the project's logo and name over a spinner and "Loading…". */
export function LoadingScreen() {
  const translate = useTranslate();
  return (
    <Flex vertical align="center" justify="center" gap={20} style={{ minHeight: '100vh' }} role="status" aria-live="polite" data-testid="app-loading">
      <Brand size={48} />
      <Spin size="large" />
      <Typography.Text type="secondary">{translate('app.loading')}</Typography.Text>
    </Flex>
  );
}
