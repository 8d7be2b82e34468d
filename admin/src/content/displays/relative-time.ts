/** How long ago (or until) a moment is, in the locale's words ("3 hours ago", "há 3 horas"), from `now`. */
export function relativeTime(value: string | number | Date, locale: string, now: number = Date.now()): string {
  const then = new Date(value).getTime();
  if (Number.isNaN(then)) return String(value);
  const seconds = Math.round((then - now) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(seconds, 'second');
}

/** A file type as its usual extension where it has one (`image/jpeg` → `JPG`), else the subtype. */
export function mimeExtension(type: string): string {
  const known: Record<string, string> = { 'image/jpeg': 'jpg', 'image/svg+xml': 'svg', 'text/plain': 'txt', 'application/msword': 'doc', 'text/markdown': 'md' };
  const extension = known[type] ?? type.split('/')[1]?.split(/[+.;-]/)[0] ?? type;
  return extension.toUpperCase();
}

/** One rule of `formatted-value`'s `conditionalFormatting`: when the value matches, its colours apply. */
export interface FormatRule {
  operator?: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'starts_with' | 'ends_with';
  value?: unknown;
  color?: string;
  background?: string;
  text?: string;
}

/** The first conditional format rule the value matches (Directus's operators), if any. */
export function matchingRule(value: unknown, rules: unknown): FormatRule | undefined {
  if (!Array.isArray(rules)) return undefined;
  const number = Number(value);
  return (rules as FormatRule[]).find((rule) => {
    if (!rule || typeof rule !== 'object') return false;
    const other = rule.value;
    const text = String(value ?? '');
    switch (rule.operator ?? 'eq') {
      case 'eq':
        return text === String(other);
      case 'neq':
        return text !== String(other);
      case 'gt':
        return number > Number(other);
      case 'gte':
        return number >= Number(other);
      case 'lt':
        return number < Number(other);
      case 'lte':
        return number <= Number(other);
      case 'contains':
        return text.includes(String(other));
      case 'starts_with':
        return text.startsWith(String(other));
      case 'ends_with':
        return text.endsWith(String(other));
      default:
        return false;
    }
  });
}
