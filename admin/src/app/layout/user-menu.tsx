import { BgColorsOutlined, CheckOutlined, GlobalOutlined, LogoutOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useGetIdentity, useGo, useLogout, useTranslate } from '@refinedev/core';
import { App, Avatar, Dropdown, Space, Typography, type MenuProps } from 'antd';
import type { Identity } from '../../providers/auth-provider.ts';
import { LOCALES } from '../../i18n/locales.ts';
import { usePreferences, type Appearance } from '../preferences.tsx';
import { assetUrl } from '../project-settings.tsx';

const APPEARANCES: Appearance[] = ['auto', 'light', 'dark'];

/** The avatar menu in the header: appearance, language, the account screen, sign out. */
export function UserMenu({ compact = false }: { compact?: boolean }) {
  const translate = useTranslate();
  const { data: identity } = useGetIdentity<Identity>();
  const { mutate: logout } = useLogout();
  const preferences = usePreferences();
  const { message } = App.useApp();
  const go = useGo();

  const save = (change: Promise<void>) => change.catch((error: Error) => message.error(error.message));

  const items: MenuProps['items'] = [
    { key: 'who', label: <Typography.Text type="secondary">{translate('app.user.signedInAs', { name: identity?.email ?? identity?.name ?? '' })}</Typography.Text>, disabled: true },
    { type: 'divider' },
    {
      key: 'appearance',
      icon: <BgColorsOutlined />,
      label: translate('app.user.appearance'),
      children: APPEARANCES.map((appearance) => ({
        key: `appearance:${appearance}`,
        label: translate(`app.user.appearance.${appearance}`),
        icon: preferences.appearance === appearance ? <CheckOutlined /> : <span style={{ width: 14, display: 'inline-block' }} />,
        onClick: () => save(preferences.setAppearance(appearance)),
      })),
    },
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: translate('app.user.language'),
      children: LOCALES.map((locale) => ({
        key: `language:${locale.code}`,
        label: locale.label,
        icon: preferences.locale === locale.code ? <CheckOutlined /> : <span style={{ width: 14, display: 'inline-block' }} />,
        onClick: () => save(preferences.setLocale(locale.code)),
      })),
    },
    { key: 'account', icon: <SafetyCertificateOutlined />, label: translate('account.menu'), onClick: () => go({ to: '/account' }) },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: translate('app.user.signOut'), danger: true, onClick: () => logout() },
  ];

  return (
    // Submenus open on click: a hover-opened submenu missed a quick pointer (and touch screens have no hover).
    <Dropdown menu={{ items, triggerSubMenuAction: 'click' }} trigger={['click']} placement="bottomRight">
      <button type="button" aria-label={translate('app.user.signedInAs', { name: identity?.name ?? '' })} data-testid="user-menu" style={{ background: 'none', border: 0, cursor: 'pointer', padding: 4 }}>
        <Space>
          <Avatar src={identity?.avatar ? assetUrl(identity.avatar, { width: 64, height: 64, fit: 'cover' }) : undefined} style={{ background: '#8c8c8c' }}>
            {(identity?.name ?? '?').slice(0, 1).toUpperCase()}
          </Avatar>
          {!compact && <Typography.Text strong>{identity?.name}</Typography.Text>}
        </Space>
      </button>
    </Dropdown>
  );
}
