import { useGetIdentity } from '@refinedev/core';
import { ConfigProvider } from 'antd';
import { useMemo, type ReactNode } from 'react';
import type { Identity } from '../../providers/auth-provider.ts';
import { useIsDark } from '../theme.tsx';
import { themeTokens } from './shell-rules.ts';
import { useShellSettings } from './shell-settings.tsx';

/** The project's theme overrides, then the user's, for the current appearance, on top of the app's antd theme. */
export function ThemeOverrides({ children }: { children: ReactNode }) {
  const { settings } = useShellSettings();
  const { data: identity } = useGetIdentity<Identity>();
  const dark = useIsDark();
  const token = useMemo(
    () => ({
      ...themeTokens(dark ? settings.theme_dark_overrides : settings.theme_light_overrides),
      ...themeTokens(dark ? identity?.theme_dark_overrides : identity?.theme_light_overrides),
    }),
    [dark, settings, identity],
  );
  if (Object.keys(token).length === 0) return <>{children}</>;
  // The app ties links to the brand colour; an overridden primary colour takes them along unless set too.
  if (token.colorPrimary !== undefined && token.colorLink === undefined) token.colorLink = token.colorPrimary;
  return <ConfigProvider theme={{ token }}>{children}</ConfigProvider>;
}
