import { JsonEditor } from '../../components/json-editor.tsx';
import { stringOption, type InterfaceProps } from './types.ts';

/** JSON fields: a formatted JSON text editor. */
export function JsonInterface({ field, value, onChange, disabled, options }: InterfaceProps<unknown>) {
  return <JsonEditor id={`field-${field.field}`} value={value} onChange={(next) => onChange?.(next)} disabled={disabled} placeholder={stringOption(options, 'placeholder')} />;
}
