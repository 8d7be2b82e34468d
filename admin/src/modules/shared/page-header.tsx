import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A screen's title, optional subtitle and actions on the right. */
export function PageHeader({ title, subtitle, actions, testId }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <Flex justify="space-between" align="center" gap={16} wrap style={{ marginBottom: 20 }}>
      <div style={{ minWidth: 0 }}>
        <Typography.Title level={3} style={{ margin: 0 }} data-testid={testId}>
          {title}
        </Typography.Title>
        {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
      </div>
      {actions ? <Flex gap={8} wrap>{actions}</Flex> : null}
    </Flex>
  );
}
