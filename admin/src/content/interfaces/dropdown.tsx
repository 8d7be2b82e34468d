import { Select } from 'antd';
import { tidyTags } from './tags.ts';
import { stringOption, type InterfaceProps } from './types.ts';

/** `options.choices` as `[{ text, value }]` (strings alone are both). */
export function choicesOf(options: Record<string, unknown>): { label: string; value: string | number }[] {
  const choices = Array.isArray(options.choices) ? options.choices : [];
  return choices.map((choice) =>
    choice && typeof choice === 'object' ? { label: String((choice as { text?: unknown }).text ?? (choice as { value?: unknown }).value), value: (choice as { value: string | number }).value } : { label: String(choice), value: choice as string },
  );
}

/** One value from `options.choices`; `options.allowOther` also takes typed values. */
export function DropdownInterface({ field, value, onChange, disabled, options }: InterfaceProps<string | number>) {
  return (
    <Select
      id={`field-${field.field}`}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      options={choicesOf(options)}
      disabled={disabled}
      allowClear={field.schema?.is_nullable !== false}
      showSearch
      optionFilterProp="label"
      placeholder={stringOption(options, 'placeholder')}
      mode={options.allowOther ? 'tags' : undefined}
      maxCount={options.allowOther ? 1 : undefined}
    />
  );
}

/** Several values from `options.choices` (csv and json fields). */
export function MultipleDropdownInterface({ field, value, onChange, disabled, options }: InterfaceProps<(string | number)[]>) {
  return (
    <Select
      id={`field-${field.field}`}
      mode={options.allowOther ? 'tags' : 'multiple'}
      value={Array.isArray(value) ? value : []}
      onChange={(next) => onChange?.(next.length > 0 ? next : null)}
      options={choicesOf(options)}
      disabled={disabled}
      allowClear
      optionFilterProp="label"
    />
  );
}

/** Free tags (csv or json lists): type and press Enter; `presets` offered, `allowCustom: false` limits to them. */
export function TagsInterface({ field, value, onChange, disabled, options }: InterfaceProps<string[]>) {
  const presets = Array.isArray(options.presets) ? options.presets.map((tag) => ({ label: String(tag), value: String(tag) })) : choicesOf(options);
  const custom = options.allowCustom !== false;
  return (
    <Select
      id={`field-${field.field}`}
      mode={custom ? 'tags' : 'multiple'}
      value={Array.isArray(value) ? value : []}
      onChange={(next: unknown[]) => {
        const tags = tidyTags(next, options);
        onChange?.(tags.length > 0 ? tags : null);
      }}
      options={presets}
      disabled={disabled}
      tokenSeparators={[',']}
      placeholder={stringOption(options, 'placeholder')}
      open={presets.length > 0 ? undefined : false}
      data-testid={`tags-${field.field}`}
    />
  );
}
