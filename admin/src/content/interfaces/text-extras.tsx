import { useTranslate } from '@refinedev/core';
import { Button, Input, InputNumber, Slider, Space, Tag, Typography } from 'antd';
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

/**
 * Code (`input-code`: `language`, `lineNumber`, `template`): monospaced text; for JSON (the language or a
 * json field) it says where the text stops being JSON, and json fields store the parsed value.
 */
export function CodeInterface({ field, value, onChange, disabled, options }: InterfaceProps<unknown>) {
  const translate = useTranslate();
  const json = field.type === 'json' || stringOption(options, 'language')?.toLowerCase() === 'json';
  const shown = typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState<string | null>(null);
  const current = text ?? shown;
  let problem: string | null = null;
  if (json && current.trim() !== '') {
    try {
      JSON.parse(current);
    } catch (error) {
      problem = (error as Error).message;
    }
  }
  const lines = current.split('\n').length;
  return (
    <div data-testid={`code-${field.field}`}>
      <div style={{ display: 'flex', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>
        {options.lineNumber !== false && (
          <pre aria-hidden style={{ margin: 0, padding: '5px 8px', textAlign: 'right', opacity: 0.45, userSelect: 'none', lineHeight: '22px' }}>
            {Array.from({ length: lines }, (_, index) => index + 1).join('\n')}
          </pre>
        )}
        <Input.TextArea
          id={`field-${field.field}`}
          value={current}
          disabled={disabled}
          spellCheck={false}
          autoSize={{ minRows: 4, maxRows: 30 }}
          status={problem ? 'error' : undefined}
          placeholder={stringOption(options, 'template')}
          style={{ fontFamily: 'inherit', lineHeight: '22px' }}
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            if (next.trim() === '') return onChange?.(null);
            if (field.type !== 'json') return onChange?.(next);
            try {
              onChange?.(JSON.parse(next));
            } catch {
              // The last valid value stays in the form while the text is not JSON.
            }
          }}
        />
      </div>
      {problem && <Typography.Text type="danger">{translate('content.code.invalidJson', { problem })}</Typography.Text>}
    </div>
  );
}
