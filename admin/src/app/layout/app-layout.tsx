import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import { useGetIdentity } from '@refinedev/core';
import { Button, Layout, Spin, theme } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import type { Identity } from '../../providers/auth-provider.ts';
import { CustomCss } from '../custom-css.tsx';
import { usePreferences } from '../preferences.tsx';
import { Brand } from './brand.tsx';
import { SideMenu } from './side-menu.tsx';
import { UserMenu } from './user-menu.tsx';

/** Adopts the signed-in user's language and appearance, and loads translation overrides. */
function useUserPreferences() {
  const { data: identity } = useGetIdentity<Identity>();
  const { adoptUser, reloadOverrides } = usePreferences();
  useEffect(() => {
    if (!identity) return;
    adoptUser({ language: identity.language, appearance: identity.appearance });
    void reloadOverrides();
  }, [identity, adoptUser, reloadOverrides]);
}

/** The signed-in frame: a sider with the brand and menu, a header with the user menu, the page. */
export function AppLayout({ moduleResources }: { moduleResources: ResourceProps[] }) {
  const [collapsed, setCollapsed] = useState(false);
  const { token } = theme.useToken();
  useUserPreferences();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <CustomCss />
      <Layout.Sider
        width={248}
        collapsible
        collapsed={collapsed}
        trigger={null}
        breakpoint="lg"
        onBreakpoint={setCollapsed}
        style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <div style={{ height: 64, display: 'flex', alignItems: 'center', padding: collapsed ? '0 24px' : '0 20px' }}>
          <Brand collapsed={collapsed} />
        </div>
        <SideMenu moduleResources={moduleResources} />
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '0 16px', borderBottom: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, zIndex: 10 }}>
          <Button type="text" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={() => setCollapsed(!collapsed)} aria-label="Toggle menu" />
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ padding: 24, minWidth: 0 }}>
          <Suspense fallback={<Spin style={{ display: 'block', margin: '20vh auto' }} />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
