import { Switch } from 'antd';
import { stringOption, type InterfaceProps } from './types.ts';

/** A boolean as a switch (`boolean`); `options.label` is shown beside it, `colorOn`/`colorOff` colour the switch. */
export function ToggleInterface({ field, value, onChange, disabled, options }: InterfaceProps<boolean>) {
  const label = stringOption(options, 'label');
  const color = stringOption(options, value ? 'colorOn' : 'colorOff');
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Switch id={`field-${field.field}`} checked={Boolean(value)} onChange={(checked) => onChange?.(checked)} disabled={disabled} style={color ? { backgroundColor: color } : undefined} />
      {label && <span>{label}</span>}
    </span>
  );
}
