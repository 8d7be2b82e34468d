import { useTranslation } from '@refinedev/core';
import { List, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ProviderIcon } from '../../auth/provider-icon.tsx';
import { type ConfiguredProvider, fetchConfiguredProviders } from '../../auth/providers.ts';

/**
 * The configured sign-in providers (`GET /auth`), read-only: they come from AUTH_PROVIDERS and
 * AUTH_<NAME>_* at start-up, so they are changed in the environment, not here.
 */
export function SignInProviders() {
  const { translate } = useTranslation();
  const [providers, setProviders] = useState<ConfiguredProvider[] | null>(null);
  useEffect(() => {
    void fetchConfiguredProviders().then(setProviders);
  }, []);
  return (
    <div data-testid="settings-sign-in-providers">
      <Typography.Paragraph type="secondary">{translate('settings.providers.help')}</Typography.Paragraph>
      <List
        size="small"
        loading={providers === null}
        dataSource={providers ?? []}
        locale={{ emptyText: translate('settings.providers.none') }}
        renderItem={(provider) => (
          <List.Item>
            <Space>
              <ProviderIcon name={provider.icon} />
              <span>{provider.label}</span>
              <Typography.Text type="secondary" code>
                {provider.name}
              </Typography.Text>
              <Tag>{translate(`settings.providers.driver.${provider.driver}`)}</Tag>
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}
