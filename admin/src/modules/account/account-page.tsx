import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useInvalidateAuthStore, useTranslate } from '@refinedev/core';
import { App, Card, Flex, Skeleton, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { readTfaState } from './tfa-api.ts';
import { TfaDisable, TfaSetup } from './tfa-setup.tsx';

/** The signed-in user's own account: two-factor authentication on or off. */
export default function AccountPage() {
  const translate = useTranslate();
  const { message } = App.useApp();
  const invalidateAuth = useInvalidateAuthStore();
  const [state, setState] = useState<{ enabled: boolean; enforced: boolean } | null>(null);
  const reload = useCallback(() => {
    readTfaState().then(setState, () => setState({ enabled: false, enforced: false }));
  }, []);
  useEffect(reload, [reload]);

  const changed = (key: string) => () => {
    message.success(translate(key));
    reload();
    void invalidateAuth();
  };

  return (
    <Flex vertical gap={16} style={{ maxWidth: 640 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {translate('account.title')}
      </Typography.Title>
      <Card
        title={
          <Flex gap={8} align="center">
            <SafetyCertificateOutlined />
            {translate('account.tfa.title')}
            {state && (
              <Tag color={state.enabled ? 'green' : 'default'} data-testid="tfa-status">
                {translate(state.enabled ? 'account.tfa.on' : 'account.tfa.off')}
              </Tag>
            )}
          </Flex>
        }
      >
        {state === null ? (
          <Skeleton active />
        ) : state.enabled ? (
          <>
            <Typography.Paragraph>{translate(state.enforced ? 'account.tfa.enforcedOn' : 'account.tfa.onHelp')}</Typography.Paragraph>
            {!state.enforced && <TfaDisable onDisabled={changed('account.tfa.disabled')} />}
          </>
        ) : (
          <>
            <Typography.Paragraph>{translate('account.tfa.offHelp')}</Typography.Paragraph>
            <TfaSetup onEnabled={changed('account.tfa.enabled')} />
          </>
        )}
      </Card>
    </Flex>
  );
}
