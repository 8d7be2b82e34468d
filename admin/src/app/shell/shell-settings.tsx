import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { apiData } from '../../providers/http-client.ts';

/** Project settings only the signed-in frame needs (read from /settings once signed in). */
export interface ShellSettings {
  module_bar: unknown;
  report_bug_url: string | null;
  report_feature_url: string | null;
  report_error_url: string | null;
  theme_light_overrides: unknown;
  theme_dark_overrides: unknown;
}

const FIELDS = 'module_bar,report_bug_url,report_feature_url,report_error_url,theme_light_overrides,theme_dark_overrides';

const EMPTY: ShellSettings = { module_bar: null, report_bug_url: null, report_feature_url: null, report_error_url: null, theme_light_overrides: null, theme_dark_overrides: null };

export interface ShellModule {
  id: string;
  label: string;
}

interface ShellSettingsValue {
  settings: ShellSettings;
  /** The app's modules as module_bar names them (resource names) with their menu label keys, in the app's order. */
  modules: ShellModule[];
  reload(): Promise<void>;
}

const ShellSettingsContext = createContext<ShellSettingsValue>({ settings: EMPTY, modules: [], reload: async () => {} });

/** Loads the frame's settings; a role that may not read them gets the defaults. */
export function ShellSettingsProvider({ modules, children }: { modules: ShellModule[]; children: ReactNode }) {
  const [settings, setSettings] = useState<ShellSettings>(EMPTY);
  const reload = useCallback(async () => {
    try {
      const data = await apiData<Partial<ShellSettings> | null>('/settings', { query: { fields: FIELDS } });
      setSettings({ ...EMPTY, ...data });
    } catch {
      setSettings(EMPTY);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return <ShellSettingsContext value={{ settings, modules, reload }}>{children}</ShellSettingsContext>;
}

export function useShellSettings(): ShellSettingsValue {
  return useContext(ShellSettingsContext);
}
