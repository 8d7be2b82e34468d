import { Input } from 'antd';
import { stringOption, type InterfaceProps } from './types.ts';

/** Several lines of plain text; `options.monospace` for code-like content (markdown uses it). */
export function TextareaInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  return (
    <Input.TextArea
      id={`field-${field.field}`}
      value={value ?? ''}
      onChange={(event) => onChange?.(event.target.value === '' ? null : event.target.value)}
      disabled={disabled}
      placeholder={stringOption(options, 'placeholder')}
      autoSize={{ minRows: 3, maxRows: 18 }}
      style={options.monospace ? { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } : undefined}
    />
  );
}
