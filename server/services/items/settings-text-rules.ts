import { InvalidPayloadError } from '../../errors.ts';
import { parseHttpUrl } from '../../auth/http-url.ts';

// Made on first use: Intl's display names load ICU locale data, resident memory a start need not pay.
let languageNames: Intl.DisplayNames | undefined;

/**
 * `default_language` must be a BCP 47 tag whose language Intl knows (`en-US`, `de`, `pt-BR`); a
 * well-formed tag with an unknown language (`zz`) is refused too.
 */
export function validateDefaultLanguage(value: unknown): string {
  return validateLanguageTag(value, 'default_language');
}

/** A BCP 47 language tag of a known language, in its canonical form ("pt-br" → "pt-BR"); 400 naming `field` otherwise. */
export function validateLanguageTag(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new InvalidPayloadError(`${field} must be a language tag such as "en-US".`, { field });
  let language: string;
  let canonical: string;
  try {
    const locale = new Intl.Locale(value);
    language = locale.language;
    canonical = Intl.getCanonicalLocales(value)[0]!;
  } catch {
    throw new InvalidPayloadError(`${field} "${value}" is not a BCP 47 language tag such as "en-US".`, { field });
  }
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  if (languageNames.of(language) === undefined) throw new InvalidPayloadError(`${field} "${value}" names an unknown language "${language}".`, { field });
  return canonical;
}

/**
 * Variables the admin fills into report_error_url, as Directus does (micromustache, e.g.
 * `{{ error.message }}`, `{{ route.fullPath }}`, `{{ navigator.userAgent }}`).
 */
export const REPORT_ERROR_PLACEHOLDERS = ['error', 'route', 'user', 'role', 'navigator'] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PLACEHOLDER_PATH = /^([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)*$/;

/**
 * report_bug_url / report_feature_url / report_error_url: null, or an absolute http(s) URL.
 * report_error_url may carry `{{ … }}` placeholders rooted at one of REPORT_ERROR_PLACEHOLDERS; the URL
 * is judged with each placeholder filled in.
 */
export function validateReportUrl(field: string, value: unknown, placeholders: boolean): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new InvalidPayloadError(`${field} must be an http(s) URL.`, { field });
  let filled = value;
  if (placeholders) {
    filled = value.replace(PLACEHOLDER, (_match, path: string) => {
      const root = PLACEHOLDER_PATH.exec(path)?.[1];
      if (!root || !(REPORT_ERROR_PLACEHOLDERS as readonly string[]).includes(root)) {
        throw new InvalidPayloadError(`${field}: unknown placeholder "{{ ${path} }}"; use ${REPORT_ERROR_PLACEHOLDERS.map((name) => `{{ ${name} }}`).join(', ')} or their properties.`, { field });
      }
      return 'placeholder';
    });
  }
  if (/[{}]/.test(filled) && placeholders) throw new InvalidPayloadError(`${field} has an unclosed "{{ }}" placeholder.`, { field });
  if (!parseHttpUrl(filled)) throw new InvalidPayloadError(`${field} must be an absolute http(s) URL.`, { field });
  return value;
}
