import { useTranslate } from '@refinedev/core';
import { Button, Input, InputNumber, Slider, Space, Tag } from 'antd';
import { useState } from 'react';
import { numberOption, stringOption, type InterfaceProps } from './types.ts';

/** A number on a slider (`slider`): `minValue`, `maxValue`, `stepInterval`, `alwaysShowValue`. */
export function SliderInterface({ field, value, onChange, disabled, options }: InterfaceProps<number>) {
  const min = numberOption(options, 'minValue') ?? 0;
  const max = numberOption(options, 'maxValue') ?? 100;
  const step = numberOption(options, 'stepInterval') ?? (field.type === 'integer' ? 1 : (max - min) / 100);
  return (
    <Space style={{ width: '100%' }} align="center" data-testid={`slider-${field.field}`}>
      <div style={{ flex: 1, minWidth: 200 }}>
        <Slider min={min} max={max} step={step} value={typeof value === 'number' ? value : min} disabled={disabled} onChange={(next: number) => onChange?.(next)} tooltip={{ open: options.alwaysShowValue ? true : undefined }} />
      </div>
      <InputNumber id={`field-${field.field}`} size="small" min={min} max={max} step={step} value={value ?? null} disabled={disabled} onChange={(next) => onChange?.(next === null ? null : Number(next))} style={{ width: 90 }} />
    </Space>
  );
}

/** The value the API returns for a concealed field that holds something. */
const CONCEALED = '**********';

/**
 * A hashed value (`input-hash`: `placeholder`, `masked`): the API stores only its hash and never returns
 * it, so a field that holds one says "value set" with a button to type a new one.
 */
export function HashInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const translate = useTranslate();
  const [editing, setEditing] = useState(false);
  if (value === CONCEALED && !editing) {
    return (
      <Space data-testid={`hash-${field.field}`}>
        <Tag color="success" bordered={false}>
          {translate('content.hash.set')}
        </Tag>
        {!disabled && (
          <Button size="small" onClick={() => setEditing(true)}>
            {translate('content.hash.change')}
          </Button>
        )}
      </Space>
    );
  }
  const props = {
    id: `field-${field.field}`,
    value: value === CONCEALED ? '' : (value ?? ''),
    disabled,
    placeholder: stringOption(options, 'placeholder'),
    autoComplete: 'new-password',
    onChange: (event: { target: { value: string } }) => onChange?.(event.target.value === '' ? (editing ? CONCEALED : null) : event.target.value),
  };
  return options.masked === false ? <Input {...props} /> : <Input.Password {...props} />;
}
