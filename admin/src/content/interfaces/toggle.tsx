import { Switch } from 'antd';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { stringOption, type InterfaceProps } from './types.ts';

/**
 * A boolean as a switch (`boolean`): `label` beside it, `iconOn`/`iconOff` inside it (icon names, as the
 * icon interface stores them), `colorOn`/`colorOff` colour it.
 */
export function ToggleInterface({ field, value, onChange, disabled, options }: InterfaceProps<boolean>) {
  const label = stringOption(options, 'label');
  const color = stringOption(options, value ? 'colorOn' : 'colorOff');
  const iconOn = stringOption(options, 'iconOn');
  const iconOff = stringOption(options, 'iconOff');
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Switch
        id={`field-${field.field}`}
        checked={Boolean(value)}
        onChange={(checked) => onChange?.(checked)}
        disabled={disabled}
        checkedChildren={iconOn ? <CollectionIcon name={iconOn} /> : undefined}
        unCheckedChildren={iconOff ? <CollectionIcon name={iconOff} /> : undefined}
        style={color ? { backgroundColor: color } : undefined}
      />
      {label && <span>{label}</span>}
    </span>
  );
}
