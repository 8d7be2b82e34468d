import { useTranslation } from '@refinedev/core';
import { Descriptions, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ProviderIcon } from '../../auth/provider-icon.tsx';
import { type ConfiguredProvider, fetchConfiguredProviders } from '../../auth/providers.ts';

/** How a user signs in: a password (`default`) or a configured provider, with the identifier it knows them by. */
export function SignInMethod({ provider, externalIdentifier }: { provider: string | null | undefined; externalIdentifier: string | null | undefined }) {
  const { translate } = useTranslation();
  const [providers, setProviders] = useState<ConfiguredProvider[]>([]);
  useEffect(() => {
    void fetchConfiguredProviders().then(setProviders);
  }, []);
  const local = !provider || provider === 'default';
  const configured = providers.find((entry) => entry.name === provider);
  return (
    <Descriptions size="small" column={1} style={{ marginBottom: 16 }} data-testid="user-sign-in-method">
      <Descriptions.Item label={translate('users.fields.signIn')}>
        {local ? (
          translate('users.signIn.password')
        ) : (
          <Space>
            <ProviderIcon name={configured?.icon} />
            <span>{configured?.label ?? provider}</span>
            <Typography.Text type="secondary">({configured ? translate(`users.signIn.driver.${configured.driver}`) : translate('users.signIn.notConfigured')})</Typography.Text>
          </Space>
        )}
      </Descriptions.Item>
      {!local && externalIdentifier && (
        <Descriptions.Item label={translate('users.fields.externalIdentifier')}>
          <Typography.Text code copyable>
            {externalIdentifier}
          </Typography.Text>
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
