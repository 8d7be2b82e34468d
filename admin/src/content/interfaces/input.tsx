import { Input } from 'antd';
import { stringOption, type InterfaceProps } from './types.ts';

/** One line of text (string, uuid, hash fields); `options.placeholder`, `options.masked`. */
export function InputInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const props = {
    value: value ?? '',
    onChange: (event: { target: { value: string } }) => onChange?.(event.target.value === '' && field.schema?.is_nullable !== false ? null : event.target.value),
    disabled,
    placeholder: stringOption(options, 'placeholder'),
    maxLength: field.schema?.max_length ?? undefined,
    id: `field-${field.field}`,
  };
  if (options.masked || field.type === 'hash') return <Input.Password {...props} autoComplete="new-password" />;
  return <Input {...props} />;
}
