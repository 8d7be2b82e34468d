import { Switch } from 'antd';
import { stringOption, type InterfaceProps } from './types.ts';

/** A boolean as a switch; `options.label` is shown beside it. */
export function ToggleInterface({ field, value, onChange, disabled, options }: InterfaceProps<boolean>) {
  const label = stringOption(options, 'label');
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Switch id={`field-${field.field}`} checked={Boolean(value)} onChange={(checked) => onChange?.(checked)} disabled={disabled} />
      {label && <span>{label}</span>}
    </span>
  );
}
