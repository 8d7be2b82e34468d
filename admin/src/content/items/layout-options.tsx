import { ControlOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Form, Input, Popover, Select } from 'antd';
import type { ReactNode } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { fieldLabel } from '../field-label.ts';
import type { FieldInfo } from '../schema/types.ts';

export { stringOption } from './layout-fields.ts';

/** A layout's settings button: a popover holding `children` (its option controls). */
export function LayoutOptionsButton({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={translate('content.layouts.options')}
      content={
        <Form layout="vertical" style={{ width: 'min(320px, 80vw)', maxHeight: '60vh', overflowY: 'auto' }} data-testid="layout-options-panel">
          {children}
        </Form>
      }
    >
      <Button icon={<ControlOutlined />} data-testid="layout-options">
        {translate('content.layouts.options')}
      </Button>
    </Popover>
  );
}

/** One option: a field of the collection, picked among `fields`; clearing it stores nothing. */
export function FieldOption({ label, option, value, fields, onChange }: { label: string; option: string; value: unknown; fields: readonly FieldInfo[]; onChange(value: string | null): void }) {
  const { locale } = usePreferences();
  return (
    <Form.Item label={label}>
      <Select
        allowClear
        value={typeof value === 'string' ? value : undefined}
        onChange={(next) => onChange(next ?? null)}
        options={fields.map((field) => ({ value: field.field, label: fieldLabel(field, locale) }))}
        data-testid={`layout-option-field-${option}`}
      />
    </Form.Item>
  );
}

/** One option: a display template (`{{title}} – {{author.name}}`), saved when the input is left. */
export function TemplateOption({ label, option, value, onChange }: { label: string; option: string; value: unknown; onChange(value: string | null): void }) {
  const translate = useTranslate();
  return (
    <Form.Item label={label} extra={translate('content.layouts.templateHelp')}>
      <Input
        key={String(value ?? '')}
        defaultValue={typeof value === 'string' ? value : ''}
        onBlur={(event) => onChange(event.target.value.trim() || null)}
        onPressEnter={(event) => onChange((event.target as HTMLInputElement).value.trim() || null)}
        data-testid={`layout-option-template-${option}`}
      />
    </Form.Item>
  );
}

/** One option: one of a few named values. */
export function ChoiceOption<Value extends string | number>({ label, option, value, choices, onChange }: { label: string; option: string; value: Value; choices: Array<{ value: Value; label: string }>; onChange(value: Value): void }) {
  return (
    <Form.Item label={label}>
      <Select value={value} onChange={onChange} options={choices} data-testid={`layout-option-choice-${option}`} />
    </Form.Item>
  );
}

/** `options` with `name` set to `value`, or without it when `value` is null. */
export function withOption(options: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const next = { ...options };
  if (value === null || value === undefined) delete next[name];
  else next[name] = value;
  return next;
}
