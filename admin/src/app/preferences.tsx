import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Locale, Messages } from './module.ts';
import { pickLocale, toLocale } from '../i18n/locales.ts';
import { apiData, apiRequest } from '../providers/http-client.ts';
import { setCustomTexts } from '../i18n/custom-texts.ts';
import { useProject } from './project-settings.tsx';

/** What the user chose for colours: follow the system, or force one. */
export type Appearance = 'auto' | 'light' | 'dark';

interface PreferencesValue {
  locale: Locale;
  appearance: Appearance;
  /** Texts from the translations collection for the current locale, by key. */
  overrides: Messages;
  /** Adopts the signed-in user's saved choices (null: follow the project). */
  adoptUser(user: { language: string | null; appearance: Appearance | null } | null): void;
  /** Changes the language, saving it on the user when someone is signed in. */
  setLocale(locale: Locale, persist?: boolean): Promise<void>;
  setAppearance(appearance: Appearance, persist?: boolean): Promise<void>;
  /** Re-reads the translations collection (after sign-in, or after editing translations). */
  reloadOverrides(): Promise<void>;
}

const PreferencesContext = createContext<PreferencesValue | null>(null);

/** Locale, appearance and translation overrides for the whole app. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { project } = useProject();
  const [userLanguage, setUserLanguage] = useState<string | null>(null);
  const [userAppearance, setUserAppearance] = useState<Appearance | null>(null);
  const [overrideRows, setOverrideRows] = useState<{ key: string; language: string; value: string }[]>([]);

  const locale = pickLocale(userLanguage, project.default_language);
  const appearance: Appearance = userAppearance ?? project.default_appearance ?? 'auto';

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const reloadOverrides = useCallback(async () => {
    try {
      const rows = await apiData<{ key: string; language: string; value: string }[]>('/translations', { query: { fields: 'key,language,value', limit: -1 } });
      setOverrideRows(rows ?? []);
    } catch {
      // Not signed in, or no read access: built-in texts only.
      setOverrideRows([]);
    }
  }, []);

  // Stable, so effects that adopt the user's choices run once per identity, not once per locale change.
  const adoptUser = useCallback<PreferencesValue['adoptUser']>((user) => {
    setUserLanguage(user?.language ?? null);
    setUserAppearance(user?.appearance ?? null);
  }, []);

  const value = useMemo<PreferencesValue>(() => {
    setCustomTexts(overrideRows);
    const overrides: Messages = {};
    for (const row of overrideRows) if (toLocale(row.language) === locale) overrides[row.key] = row.value;
    return {
      locale,
      appearance,
      overrides,
      adoptUser,
      async setLocale(next, persist = true) {
        setUserLanguage(next);
        if (persist) await apiRequest('/users/me', { method: 'PATCH', body: { language: next }, query: { fields: 'id' } });
      },
      async setAppearance(next, persist = true) {
        setUserAppearance(next);
        if (persist) await apiRequest('/users/me', { method: 'PATCH', body: { appearance: next }, query: { fields: 'id' } });
      },
      reloadOverrides,
    };
  }, [locale, appearance, overrideRows, reloadOverrides, adoptUser]);

  return <PreferencesContext value={value}>{children}</PreferencesContext>;
}

/** The current locale and appearance, and how to change them. */
export function usePreferences(): PreferencesValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences needs <PreferencesProvider>');
  return value;
}
