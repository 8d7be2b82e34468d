import { useTranslation } from '@refinedev/core';
import { DatePicker, Input, InputNumber, Select, Switch } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { renderTemplate } from '../../content/display-template.ts';
import { isError, type ItemsResult, type PanelResult } from './panel-results.ts';
import type { PanelOptions } from './panel-types.ts';

/**
 * The input of a variable panel: a typed field for a global variable, a select over the panel's items
 * for a relational one. Text settles for a moment before it counts, so typing does not reload the
 * dashboard on every key.
 */
export function VariableInput({ type, options, result, value, onChange, testId }: { type: 'global-variable' | 'relational-variable'; options: PanelOptions; result: PanelResult | undefined; value: unknown; onChange(value: unknown): void; testId: string }) {
  const { translate } = useTranslation();
  const [text, setText] = useState<string>(value === undefined || value === null ? '' : String(value));
  const variableType = typeof options.type === 'string' ? options.type : 'string';

  useEffect(() => {
    if (type !== 'global-variable' || (variableType !== 'string' && variableType !== 'integer' && variableType !== 'float')) return;
    const current = value === undefined || value === null ? '' : String(value);
    if (text === current) return;
    const timer = setTimeout(() => onChange(text === '' ? undefined : text), 400);
    return () => clearTimeout(timer);
  }, [text, value, type, variableType, onChange]);

  if (type === 'relational-variable') {
    const items = result && !isError(result) && 'items' in result ? (result as ItemsResult).items : [];
    const template = typeof options.displayTemplate === 'string' ? options.displayTemplate : null;
    return (
      <Select
        style={{ width: '100%' }}
        allowClear
        showSearch
        optionFilterProp="label"
        mode={options.multiple ? 'multiple' : undefined}
        placeholder={translate('insights.variable.choose')}
        value={value as never}
        onChange={(chosen: unknown) => onChange(Array.isArray(chosen) && chosen.length === 0 ? undefined : chosen)}
        data-testid={testId}
        options={items.map((item) => ({ value: item.id as string | number, label: renderTemplate(template, item) }))}
      />
    );
  }
  if (variableType === 'boolean') return <Switch checked={value === true} onChange={(on) => onChange(on)} data-testid={testId} />;
  if (variableType === 'date' || variableType === 'dateTime') {
    const withTime = variableType === 'dateTime';
    return (
      <DatePicker
        style={{ width: '100%' }}
        showTime={withTime}
        value={typeof value === 'string' && value ? dayjs(value) : null}
        onChange={(day) => onChange(day ? (withTime ? day.toISOString() : day.format('YYYY-MM-DD')) : undefined)}
        data-testid={testId}
      />
    );
  }
  if (variableType === 'integer' || variableType === 'float') {
    return <InputNumber style={{ width: '100%' }} precision={variableType === 'integer' ? 0 : undefined} value={text === '' ? null : Number(text)} onChange={(next) => setText(next === null ? '' : String(next))} data-testid={testId} />;
  }
  return <Input value={text} allowClear onChange={(event) => setText(event.target.value)} placeholder={translate('insights.variable.placeholder')} data-testid={testId} />;
}
