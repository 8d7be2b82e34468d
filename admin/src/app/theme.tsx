import { App as AntdApp, ConfigProvider, theme } from 'antd';
import antdEnUS from 'antd/es/locale/en_US';
import antdPtBR from 'antd/es/locale/pt_BR';
import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { usePreferences } from './preferences.tsx';
import { brandColor, useProject } from './project-settings.tsx';

// antd's pt_BR lacks these two sections, so their English texts would show.
const antdPtBRComplete = {
  ...antdPtBR,
  ColorPicker: { presetEmpty: 'Vazio', transparent: 'Transparente', singleColor: 'Cor única', gradientColor: 'Gradiente' },
  QRCode: { expired: 'QR code expirado', refresh: 'Atualizar', scanned: 'Lido' },
};

// `L`, `LT` … formats dates in the user's locale (lists, revisions, pickers).
dayjs.extend(localizedFormat);

/** Whether a CSS media query matches, kept up to date as the system setting changes. */
function useMediaQuery(media: string): boolean {
  const query = useMemo(() => (typeof window !== 'undefined' ? window.matchMedia(media) : null), [media]);
  const [matches, setMatches] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = (event: MediaQueryListEvent) => setMatches(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

/** Whether the app is dark now (the user's appearance, or the system's when it is `auto`). */
export function useIsDark(): boolean {
  const { appearance } = usePreferences();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  return appearance === 'dark' || (appearance === 'auto' && systemDark);
}

/** antd theme from the project's brand colour and the user's appearance; antd and dayjs in the locale. */
export function AppTheme({ children }: { children: ReactNode }) {
  const { project } = useProject();
  const { locale } = usePreferences();
  const dark = useIsDark();
  // The system's "reduce motion" (an accessibility setting): panels, pop-ups and messages appear without sliding or zooming.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  dayjs.locale(locale === 'pt-BR' ? 'pt-br' : 'en');
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    document.body.style.background = dark ? '#141414' : '#f5f6fa';
  }, [dark]);
  return (
    <ConfigProvider
      locale={locale === 'pt-BR' ? antdPtBRComplete : antdEnUS}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { motion: !reducedMotion, colorPrimary: brandColor(project.project_color), colorLink: brandColor(project.project_color), borderRadius: 8, fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        components: { Layout: { headerBg: dark ? '#1f1f1f' : '#ffffff', siderBg: dark ? '#1f1f1f' : '#ffffff', bodyBg: dark ? '#141414' : '#f5f6fa' } },
      }}
    >
      <AntdApp notification={{ placement: 'bottomRight' }} message={{ top: 72 }}>{children}</AntdApp>
    </ConfigProvider>
  );
}
