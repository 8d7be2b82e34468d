import { Authenticated, Refine, type ResourceProps } from '@refinedev/core';
import routerProvider, { CatchAllNavigate } from '@refinedev/react-router';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet, Route, RouterProvider, Routes } from 'react-router';
import { enUS } from '../i18n/en-US.ts';
import { ptBR } from '../i18n/pt-BR.ts';
import { mergeCatalogues } from '../i18n/translate.ts';
import { TfaGate } from '../modules/account/tfa-required-screen.tsx';
import { modules } from '../modules/index.ts';
import { accessControlProvider } from '../providers/access-control-provider.ts';
import { createAuthProvider } from '../providers/auth-provider.ts';
import { createDataProvider } from '../providers/data-provider.ts';
import { createI18nProvider } from '../providers/i18n-provider.ts';
import { SchemaProvider } from '../content/schema/schema-context.tsx';
import { contentRoutes } from '../content/routes.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { AppExtensionsLoader, ExtensionModulePage } from '../extensions/module-page.tsx';
import { useQuietNotifications } from './notifications.ts';
import { PreferencesProvider, usePreferences } from './preferences.tsx';
import { ProjectProvider } from './project-settings.tsx';
import { AppTheme } from './theme.tsx';
import { LoadingScreen } from './loading-screen.tsx';
import { ResetPasswordPage, AcceptInvitePage } from '../auth/set-password-page.tsx';
import { shareMessages } from '../content/items/share-messages.ts';

const SignInPage = lazy(() => import('../auth/sign-in-page.tsx'));
const SharePage = lazy(() => import('../content/items/share-page.tsx'));

const dataProvider = createDataProvider();
const authProvider = createAuthProvider();
/** Built-in texts merged with every module's texts. */
const catalogue = mergeCatalogues({ 'en-US': enUS, 'pt-BR': ptBR }, shareMessages, ...modules.map((module) => module.messages));
const moduleResources: ResourceProps[] = modules.flatMap((module) => module.resources);

const fullPageSpinner = <LoadingScreen />;

function RefineApp() {
  const preferences = usePreferences();
  const { locale, overrides, setLocale } = preferences;
  const changeLocale = useCallback((next: Parameters<typeof setLocale>[0]) => setLocale(next), [setLocale]);
  const i18nProvider = useMemo(() => createI18nProvider(catalogue, locale, overrides, changeLocale), [locale, overrides, changeLocale]);
  const notificationProvider = useQuietNotifications();

  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      routerProvider={routerProvider}
      notificationProvider={notificationProvider}
      resources={moduleResources}
      options={{ disableTelemetry: true, warnWhenUnsavedChanges: true, syncWithLocation: false, reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } } } }}
    >
      <Suspense fallback={fullPageSpinner}>
        <Routes>
          <Route
            element={
              <Authenticated key="signed-in" fallback={<CatchAllNavigate to="/login" />} loading={fullPageSpinner}>
                <TfaGate>
                  <SchemaProvider>
                    <AppExtensionsLoader />
                    <AppLayout moduleResources={moduleResources} />
                  </SchemaProvider>
                </TfaGate>
              </Authenticated>
            }
          >
            {contentRoutes}
            {modules.map((module) => (
              <Route key={module.name}>{module.routes}</Route>
            ))}
            <Route path="/modules/:module/*" element={<ExtensionModulePage />} />
          </Route>
          <Route
            element={
              <Authenticated key="signed-out" fallback={<Outlet />} loading={fullPageSpinner}>
                <Navigate to="/" replace />
              </Authenticated>
            }
          >
            <Route path="/login" element={<SignInPage />} />
          </Route>
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/accept-invite" element={<AcceptInvitePage />} />
          <Route path="/shared/:id" element={<SharePage />} />
        </Routes>
      </Suspense>
    </Refine>
  );
}

/** Project settings and preferences around Refine: every page of the admin. */
function Root() {
  return (
    <ProjectProvider>
      <PreferencesProvider>
        <AppTheme>
          <RefineApp />
        </AppTheme>
      </PreferencesProvider>
    </ProjectProvider>
  );
}

/**
 * The admin app, routed under /admin. A data router (one splat route; the pages are descendant routes)
 * rather than a `BrowserRouter`: only a data router can hold a navigation, the browser's Back and Forward
 * buttons included, while a form with unsaved edits asks first (`useBlocker`).
 */
export function App() {
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <Root /> }], { basename: '/admin' }));
  return <RouterProvider router={router} />;
}
