import { InputNumber, Typography } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { safeNumberToWords } from '../../i18n/number-words.ts';
import { numberOption, type InterfaceProps } from './types.ts';

/**
 * Numbers. Integers step by 1; decimal and bigInteger values travel as strings (no rounding), so the
 * input works in string mode for them. `options.words` writes the value out in words below it.
 */
export function NumberInterface({ field, value, onChange, disabled, options }: InterfaceProps<number | string>) {
  const { locale } = usePreferences();
  const exact = field.type === 'decimal' || field.type === 'bigInteger';
  const integer = field.type === 'integer' || field.type === 'bigInteger';
  const words = options.words ? safeNumberToWords(value, locale) : '';
  return (
    <>
      <InputNumber<string | number>
        id={`field-${field.field}`}
        style={{ width: '100%' }}
        value={value ?? null}
        stringMode={exact}
        precision={integer ? 0 : (field.schema?.numeric_scale ?? undefined)}
        min={numberOption(options, 'min')}
        max={numberOption(options, 'max')}
        step={numberOption(options, 'step') ?? (integer ? 1 : 0.1)}
        disabled={disabled}
        onChange={(next) => onChange?.(next === null || next === '' ? null : exact ? String(next) : Number(next))}
      />
      {words && (
        <Typography.Text type="secondary" data-testid={`words-${field.field}`} style={{ display: 'block', marginTop: 4 }}>
          {words}
        </Typography.Text>
      )}
    </>
  );
}
