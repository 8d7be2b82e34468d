import { useMemo } from 'react';
import { formatBytes, formatDate, formatNumber, type DateKind } from '../i18n/format.ts';
import { usePreferences } from './preferences.tsx';

/** The formatters of `i18n/format.ts` bound to the app's locale. */
export function useFormat() {
  const { locale } = usePreferences();
  return useMemo(
    () => ({
      locale,
      date: (value: string | number | Date | null | undefined, kind: DateKind = 'dateTime') => formatDate(value, locale, kind),
      number: (value: number | string | bigint | null | undefined, options?: Intl.NumberFormatOptions) => formatNumber(value, locale, options),
      bytes: (size: number | string | null | undefined) => formatBytes(size, locale),
    }),
    [locale],
  );
}
