import { Input } from 'antd';
import { stringOption, type InterfaceProps } from './types.ts';

/** Lower-case letters, digits and single dashes (accents dropped); a dash being typed at the end is kept. */
export function slugify(text: string, typing = false): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '');
  return typing ? slug : slug.replace(/-+$/, '');
}

const FONTS: Record<string, string> = { 'sans-serif': 'inherit', serif: 'Georgia, "Times New Roman", serif', monospace: 'ui-monospace, SFMono-Regular, Menlo, monospace' };

/**
 * One line of text (string, uuid, hash fields), Directus's `input` options: `placeholder`, `masked`, `trim`
 * (spaces around the text dropped when leaving the field), `slug` (kept URL-safe as it is typed), `font`.
 */
export function InputInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const emit = (text: string) => onChange?.(text === '' && field.schema?.is_nullable !== false ? null : text);
  const props = {
    value: value ?? '',
    onChange: (event: { target: { value: string } }) => emit(options.slug ? slugify(event.target.value, true) : event.target.value),
    onBlur: () => {
      if (typeof value !== 'string') return;
      const tidy = options.slug ? slugify(value) : options.trim ? value.trim() : value;
      if (tidy !== value) emit(tidy);
    },
    disabled,
    placeholder: stringOption(options, 'placeholder'),
    maxLength: field.schema?.max_length ?? undefined,
    id: `field-${field.field}`,
    style: { fontFamily: FONTS[stringOption(options, 'font') ?? ''] },
  };
  if (options.masked || field.type === 'hash') return <Input.Password {...props} autoComplete="new-password" />;
  return <Input {...props} />;
}
