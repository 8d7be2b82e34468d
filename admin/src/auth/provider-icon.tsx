import { AppleOutlined, ClusterOutlined, GithubOutlined, GitlabOutlined, GoogleOutlined, KeyOutlined, LockOutlined, LoginOutlined, SafetyCertificateOutlined, WindowsOutlined } from '@ant-design/icons';
import type { ReactElement } from 'react';

/** Icons for the names providers are usually configured with (AUTH_<NAME>_ICON); others get a sign-in arrow. */
const ICONS: Record<string, () => ReactElement> = {
  github: () => <GithubOutlined />,
  gitlab: () => <GitlabOutlined />,
  google: () => <GoogleOutlined />,
  apple: () => <AppleOutlined />,
  microsoft: () => <WindowsOutlined />,
  windows: () => <WindowsOutlined />,
  key: () => <KeyOutlined />,
  vpn_key: () => <KeyOutlined />,
  lock: () => <LockOutlined />,
  lan: () => <ClusterOutlined />,
  ldap: () => <ClusterOutlined />,
  account_tree: () => <ClusterOutlined />,
  verified_user: () => <SafetyCertificateOutlined />,
  security: () => <SafetyCertificateOutlined />,
};

/** The icon of a sign-in provider, by the name it is configured with. */
export function ProviderIcon({ name }: { name: string | null | undefined }) {
  const icon = ICONS[(name ?? '').toLowerCase()];
  return icon ? icon() : <LoginOutlined />;
}
