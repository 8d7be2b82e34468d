import { useTranslate } from '@refinedev/core';
import { Alert, Button, Divider, Space } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { stringOption, type InterfaceProps } from './types.ts';

/**
 * Presentation interfaces hold no value (alias fields with the `no-data` special): the form draws them
 * where they stand and hands them the item being edited as `value`, for templated texts and links.
 */
type PresentationProps = InterfaceProps<Record<string, unknown>>;

/** Fills `{{path}}` placeholders from the item (empty for missing values), each passed through `encode`. */
export function fill(text: string, item: Record<string, unknown>, encode: (value: string) => string = (value) => value): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    const value = path.split('.').reduce<unknown>((current, key) => (current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined), item);
    return value === null || value === undefined ? '' : encode(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
}

/** `presentation-divider`: a rule with an optional `title` (`inlineTitle` puts it on the line). */
export function DividerInterface({ field, options }: PresentationProps) {
  const { locale } = usePreferences();
  const title = resolveText(stringOption(options, 'title'), locale);
  return (
    <Divider orientation={options.inlineTitle ? 'center' : 'left'} style={{ color: stringOption(options, 'color') }} data-testid={`divider-${field.field}`}>
      {title}
    </Divider>
  );
}

const NOTICE_TYPES = { normal: 'info', info: 'info', success: 'success', warning: 'warning', danger: 'error' } as const;

/** `presentation-notice`: a box with `text` (`{{field}}` placeholders filled from the item), coloured by `color`. */
export function NoticeInterface({ field, value, options }: PresentationProps) {
  const { locale } = usePreferences();
  const color = (stringOption(options, 'color') ?? 'normal') as keyof typeof NOTICE_TYPES;
  const text = resolveText(stringOption(options, 'text'), locale) ?? '';
  return <Alert type={NOTICE_TYPES[color] ?? 'info'} showIcon message={fill(text, value ?? {})} style={{ marginBottom: 24 }} data-testid={`notice-${field.field}`} />;
}

interface LinkOption {
  label?: string;
  url?: string;
  type?: 'normal' | 'primary' | 'secondary' | 'danger';
}

/** Only web and relative addresses become links (not `javascript:` or `data:`). */
export function safeUrl(url: string): string | null {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** `presentation-links`: buttons to `links[].url`, whose `{{field}}` placeholders are filled from the item (URL-encoded). */
export function LinksInterface({ field, value, options }: PresentationProps) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const links = Array.isArray(options.links) ? (options.links as LinkOption[]).filter((link) => link && typeof link.url === 'string') : [];
  const item = value ?? {};
  return (
    <Space wrap style={{ marginBottom: 24 }} data-testid={`links-${field.field}`}>
      {links.map((link, index) => {
        const url = safeUrl(fill(link.url!, item, encodeURIComponent));
        return (
          <Button key={index} type={link.type === 'primary' ? 'primary' : 'default'} danger={link.type === 'danger'} href={url ?? undefined} disabled={!url} target="_blank" rel="noopener noreferrer">
            {resolveText(link.label, locale) || translate('content.links.open')}
          </Button>
        );
      })}
    </Space>
  );
}
