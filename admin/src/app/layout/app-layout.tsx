import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import { useGetIdentity, useTranslate } from '@refinedev/core';
import { Button, Drawer, Layout, Spin, Typography, theme } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import type { Identity } from '../../providers/auth-provider.ts';
import { CustomCss } from '../custom-css.tsx';
import { usePreferences } from '../preferences.tsx';
import { useProject } from '../project-settings.tsx';
import { PageErrorBoundary } from '../shell/error-screen.tsx';
import { HelpMenu } from '../shell/help-menu.tsx';
import { NotificationBell } from '../../modules/notifications/notification-bell.tsx';
import { useLastPage } from '../shell/last-page.ts';
import { isSafeLink } from '../shell/shell-rules.ts';
import { ShellSettingsProvider } from '../shell/shell-settings.tsx';
import { ThemeOverrides } from '../shell/theme-overrides.tsx';
import { Brand } from './brand.tsx';
import { SideMenu } from './side-menu.tsx';
import { useNarrow } from './use-narrow.ts';
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

/** settings.project_descriptor in the header, a link to settings.project_url when set. */
function ProjectDescriptor() {
  const { project } = useProject();
  const translate = useTranslate();
  const url = project.project_url && isSafeLink(project.project_url) ? project.project_url : null;
  if (!project.project_descriptor && !url) return null;
  return (
    <span style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, overflow: 'hidden' }}>
      {project.project_descriptor && (
        <Typography.Text type="secondary" ellipsis data-testid="project-descriptor">
          {project.project_descriptor}
        </Typography.Text>
      )}
      {url && (
        <Typography.Link href={url} target="_blank" rel="noreferrer" data-testid="project-url" ellipsis>
          {translate('app.header.openProject')}
        </Typography.Link>
      )}
    </span>
  );
}

/** The frame with the project settings it honours: theme overrides, module bar, report links. */
export function AppLayout(props: { moduleResources: ResourceProps[] }) {
  const modules = useMemo(
    () => props.moduleResources.filter((resource) => typeof resource.list === 'string' && !resource.meta?.hide).map((resource) => ({ id: resource.name, label: String(resource.meta?.label ?? resource.name) })),
    [props.moduleResources],
  );
  return (
    <ShellSettingsProvider modules={modules}>
      <ThemeOverrides>
        <Frame {...props} />
      </ThemeOverrides>
    </ShellSettingsProvider>
  );
}

/**
 * The signed-in frame: a sider with the brand and menu, a header with the user menu, the page. Below
 * 992 px the sider gives its width back to the page and the menu opens as a drawer from the header.
 */
function Frame({ moduleResources }: { moduleResources: ResourceProps[] }) {
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const narrow = useNarrow();
  const phone = useNarrow('(max-width: 575.98px)');
  const location = useLocation();
  const translate = useTranslate();
  const { token } = theme.useToken();
  useUserPreferences();
  useLastPage();
  useEffect(() => setDrawerOpen(false), [location.pathname, narrow]);
  const menuLabel = translate('app.menu.toggle');
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <CustomCss />
      {narrow ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          width="min(300px, 85vw)"
          title={<Brand />}
          styles={{ body: { padding: '8px 0' }, header: { padding: '12px 16px' } }}
          data-testid="menu-drawer"
        >
          <SideMenu moduleResources={moduleResources} />
        </Drawer>
      ) : (
        <Layout.Sider
          width={248}
          collapsible
          collapsed={collapsed}
          trigger={null}
          style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        >
          <div style={{ height: 64, display: 'flex', alignItems: 'center', padding: collapsed ? '0 24px' : '0 20px' }}>
            <Brand collapsed={collapsed} />
          </div>
          <SideMenu moduleResources={moduleResources} />
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, padding: phone ? '0 8px' : '0 16px', borderBottom: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, zIndex: 10 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <Button
              type="text"
              icon={narrow ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => (narrow ? setDrawerOpen(true) : setCollapsed(!collapsed))}
              aria-label={menuLabel}
              data-testid="menu-toggle"
            />
            {narrow && <Brand size={28} />}
            {!phone && <ProjectDescriptor />}
          </div>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
            <NotificationBell />
            <HelpMenu />
            <UserMenu compact={phone} />
          </div>
        </Layout.Header>
        <Layout.Content style={{ padding: phone ? 12 : 24, minWidth: 0 }}>
          <Suspense fallback={<Spin style={{ display: 'block', margin: '20vh auto' }} />}>
            <PageErrorBoundary key={location.pathname}>
              <Outlet />
            </PageErrorBoundary>
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
