import { LogoutOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useInvalidateAuthStore, useLogout, useTranslate } from '@refinedev/core';
import { Button, Card, Flex, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { readTfaState } from './tfa-api.ts';
import { TfaSetup } from './tfa-setup.tsx';
import { LoadingScreen } from '../../app/loading-screen.tsx';

/**
 * Holds the app back for a user whose role enforces TFA and who has not set it up yet: every other request
 * would be refused (403 TFA_SETUP_REQUIRED), so they are led through set-up instead of being locked out.
 */
export function TfaGate({ children }: { children: ReactNode }) {
  const [required, setRequired] = useState<boolean | null>(null);
  useEffect(() => {
    readTfaState().then(
      (state) => setRequired(state.enforced && !state.enabled),
      () => setRequired(false),
    );
  }, []);
  if (required === null) return <LoadingScreen />;
  if (required) return <TfaRequiredScreen onEnabled={() => setRequired(false)} />;
  return <>{children}</>;
}

function TfaRequiredScreen({ onEnabled }: { onEnabled(): void }) {
  const translate = useTranslate();
  const { mutate: logout } = useLogout();
  const invalidateAuth = useInvalidateAuthStore();
  return (
    <Flex justify="center" align="flex-start" style={{ minHeight: '100vh', padding: '8vh 16px' }}>
      <Card style={{ width: 480, maxWidth: '100%' }} data-testid="tfa-required">
        <Flex vertical gap={8}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            <SafetyCertificateOutlined /> {translate('account.tfa.requiredTitle')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{translate('account.tfa.requiredHelp')}</Typography.Paragraph>
          <TfaSetup
            onEnabled={() => {
              void invalidateAuth();
              onEnabled();
            }}
          />
          <Button type="link" icon={<LogoutOutlined />} onClick={() => logout()} style={{ alignSelf: 'flex-start', paddingInline: 0, marginTop: 8 }}>
            {translate('account.tfa.signOut')}
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
