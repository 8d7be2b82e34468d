import { DeleteOutlined, FilterOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { AutoComplete, Badge, Button, Grid, Input, InputNumber, Popover, Segmented, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { InterfaceFor } from '../interfaces/index.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { activeRules, needsValue, operatorsFor, type FilterGroup, type FilterRule } from './filter-model.ts';

/** A field the builder can filter on. */
export interface FilterableField {
  field: string;
  label: string;
  type: string;
  /** The field's dropdown choices: values are picked from them, and a new rule starts with "equals". */
  choices?: { label: string; value: string | number }[];
  /** The field itself: a single value of a field whose interface picks values (dates, colours, icons…) is entered with that interface. */
  info?: FieldInfo;
}

/** Interfaces that enter one filter value as well as they enter the field's own (the registry's, so an item form's pickers). */
const VALUE_INTERFACES = new Set(['datetime', 'select-color', 'select-icon', 'slider', 'input-autocomplete-api']);
const SINGLE_VALUE_OPERATORS = new Set(['_eq', '_neq', '_lt', '_lte', '_gt', '_gte']);
const DATE_TYPES = new Set(['date', 'time', 'dateTime', 'timestamp']);

/** The operator a new rule on the field starts with. */
function firstOperator(field: FilterableField | undefined): string {
  if (field?.choices?.length) return '_eq';
  return operatorsFor(field?.type ?? 'string')[0] ?? '_eq';
}

/** A reference to a dashboard variable, as panel filters write it. */
const variableRef = (name: string) => `{{ ${name} }}`;

/** Typed text as the filter takes it: a number for a number field (unless it is a variable reference). */
function typedValue(text: string, numeric: boolean): unknown {
  if (numeric && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

function ValueInput({ rule, type, choices, info, variables, block, onChange }: { rule: FilterRule; type: string; choices?: FilterableField['choices']; info?: FieldInfo; variables?: readonly string[]; block: boolean; onChange: (value: unknown) => void }) {
  const translate = useTranslate();
  const width = (fixed: number) => (block ? '100%' : fixed);
  if (!needsValue(rule.operator)) return null;
  if (info && !variables && !choices?.length && SINGLE_VALUE_OPERATORS.has(rule.operator) && (VALUE_INTERFACES.has(info.meta?.interface ?? '') || DATE_TYPES.has(info.type))) {
    return (
      <div style={{ width: width(220) }} data-testid="filter-value-interface">
        <InterfaceFor field={info} options={info.meta?.options ?? {}} value={rule.value ?? null} onChange={(next) => onChange(next ?? undefined)} />
      </div>
    );
  }
  const list = rule.operator === '_in' || rule.operator === '_nin' || rule.operator === '_between';
  const references = (variables ?? []).map((name) => ({ value: variableRef(name), label: variableRef(name) }));
  if (type === 'boolean' && references.length > 0) {
    // Select values are text: "true"/"false" stand for the booleans.
    const options = [{ value: 'true', label: translate('shared.yes') }, { value: 'false', label: translate('shared.no') }, ...references];
    const shown = typeof rule.value === 'boolean' ? String(rule.value) : (rule.value as string | undefined);
    return <Select value={shown} options={options} onChange={(chosen: string) => onChange(chosen === 'true' ? true : chosen === 'false' ? false : chosen)} placeholder={translate('content.filter.value')} style={{ width: width(140) }} aria-label={translate('content.filter.value')} data-testid="filter-value-choice" />;
  }
  if (type === 'boolean') return <Switch checked={rule.value === true} onChange={onChange} aria-label={translate('content.filter.value')} />;
  if (choices?.length && ['_eq', '_neq', '_in', '_nin'].includes(rule.operator)) {
    const many = rule.operator === '_in' || rule.operator === '_nin';
    const value = many ? (Array.isArray(rule.value) ? rule.value : []) : Array.isArray(rule.value) ? undefined : rule.value;
    return <Select mode={many ? 'multiple' : undefined} value={value as never} options={[...choices, ...references]} onChange={onChange} placeholder={translate('content.filter.value')} style={{ width: width(200) }} aria-label={translate('content.filter.value')} data-testid="filter-value-choice" />;
  }
  const numeric = ['integer', 'bigInteger', 'float', 'decimal'].includes(type);
  const placeholder = list ? translate('content.filter.list') : ['date', 'dateTime', 'timestamp'].includes(type) ? 'YYYY-MM-DD' : translate('content.filter.value');
  // With variables (panel filters), any value may be typed or a `{{ name }}` picked from the list.
  if (variables) {
    return (
      <AutoComplete
        value={rule.value === undefined || rule.value === null ? '' : String(rule.value)}
        options={references}
        onChange={(text: string) => onChange(typedValue(text, numeric && !list))}
        placeholder={placeholder}
        style={{ width: width(180) }}
        aria-label={translate('content.filter.value')}
        data-testid="filter-value"
      />
    );
  }
  if (!list && numeric) {
    return <InputNumber value={rule.value as number | undefined} onChange={onChange} placeholder={translate('content.filter.value')} style={{ width: width(140) }} />;
  }
  return (
    <Input
      value={(rule.value as string | undefined) ?? ''}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
      style={{ width: width(180) }}
      aria-label={translate('content.filter.value')}
    />
  );
}

/**
 * The rules of a filter (field, operator and value, joined by all/any), shown in place. `variables` (dashboard
 * panels) lets each value also be a `{{ name }}` reference.
 */
export function FilterRules({ fields, value, onChange, variables, block = false, testId = 'filter-builder' }: { fields: FilterableField[]; value: FilterGroup; onChange: (group: FilterGroup) => void; variables?: readonly string[]; block?: boolean; testId?: string }) {
  const translate = useTranslate();
  const fieldOf = (name: string) => fields.find((field) => field.field === name);
  const typeOf = (name: string) => fieldOf(name)?.type ?? 'string';
  const update = (index: number, change: Partial<FilterRule>) => onChange({ ...value, rules: value.rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)) });
  const add = () => {
    const first = fields[0];
    if (!first) return;
    onChange({ ...value, rules: [...value.rules, { field: first.field, operator: firstOperator(first), value: undefined }] });
  };

  return (
    // A set width: sized to its content, the pop-up grew past the window's right edge (1368 px wide at 1360).
    <div style={block ? undefined : { width: 'min(600px, calc(100vw - 56px))' }} data-testid={testId}>
      {value.rules.length > 1 && (
        <Space style={{ marginBottom: 12 }}>
          <Typography.Text>{translate('content.filter.match')}</Typography.Text>
          <Segmented
            size="small"
            value={value.logic}
            onChange={(logic) => onChange({ ...value, logic: logic as FilterGroup['logic'] })}
            options={[
              { value: 'and', label: translate('content.filter.all') },
              { value: 'or', label: translate('content.filter.any') },
            ]}
          />
        </Space>
      )}
      <Space direction="vertical" style={{ width: '100%' }}>
        {value.rules.length === 0 && <Typography.Text type="secondary">{translate('content.filter.empty')}</Typography.Text>}
        {value.rules.map((rule, index) => (
          // In a form (block) each rule is one row of three equal columns; in the pop-up, fixed widths that wrap.
          <div key={index} style={block ? { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr)) auto', gap: 8, alignItems: 'center' } : { display: 'flex', flexWrap: 'wrap', gap: 8 }} data-testid={`filter-rule-${index}`}>
            <Select
              value={rule.field}
              style={{ width: block ? '100%' : 170 }}
              // Related paths (Comments (any) → Approved) are longer than the box: the list shows them whole.
              popupMatchSelectWidth={false}
              showSearch
              optionFilterProp="label"
              aria-label={translate('content.filter.field')}
              data-testid="filter-field"
              options={fields.map((field) => ({ value: field.field, label: field.label }))}
              onChange={(field) => update(index, { field, operator: firstOperator(fieldOf(field)), value: undefined })}
            />
            <Select
              value={rule.operator}
              style={{ width: block ? '100%' : 170 }}
              aria-label={translate('content.filter.operator')}
              data-testid="filter-operator"
              options={operatorsFor(typeOf(rule.field)).map((operator) => ({ value: operator, label: translate(`content.filter.op.${operator}`) }))}
              onChange={(operator) => update(index, { operator, value: ['_in', '_nin'].includes(operator) !== Array.isArray(rule.value) ? undefined : rule.value })}
            />
            {needsValue(rule.operator) ? <ValueInput rule={rule} type={typeOf(rule.field)} choices={fieldOf(rule.field)?.choices} info={fieldOf(rule.field)?.info} variables={variables} block={block} onChange={(next) => update(index, { value: next })} /> : block ? <span /> : null}
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={translate('content.filter.remove')} onClick={() => onChange({ ...value, rules: value.rules.filter((_, at) => at !== index) })} />
          </div>
        ))}
      </Space>
      <Space style={{ marginTop: 12, width: '100%', justifyContent: 'space-between' }}>
        <Button icon={<PlusOutlined />} onClick={add} disabled={fields.length === 0} data-testid="filter-add">
          {translate('content.filter.add')}
        </Button>
        {value.rules.length > 0 && (
          <Button type="link" onClick={() => onChange({ logic: 'and', rules: [] })}>
            {translate('content.filter.clear')}
          </Button>
        )}
      </Space>
    </div>
  );
}

/** A popover to build a filter: rules of field, operator and value, joined by all/any. */
export function FilterBuilder({ fields, value, onChange }: { fields: FilterableField[]; value: FilterGroup; onChange: (group: FilterGroup) => void }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  // Below 992 px the pop-up goes under the button and shifts sideways to fit the screen (antd shifts only
  // centred placements; a corner placement flips, which put it off the left edge at 768 px).
  const wide = Grid.useBreakpoint().lg ?? true;
  return (
    <Popover open={open} onOpenChange={setOpen} trigger="click" placement={wide ? 'bottomLeft' : 'bottom'} arrow={wide} styles={{ root: { maxWidth: 'calc(100vw - 16px)' } }} content={
        // Escape closes the pop-up (keyboard users); an open select inside takes the first one.
        <div onKeyDown={(event) => event.key === 'Escape' && !event.defaultPrevented && setOpen(false)}>
          <FilterRules fields={fields} value={value} onChange={onChange} />
        </div>
      } title={translate('content.filter.title')}>
      <Badge count={activeRules(value)} size="small">
        <Button icon={<FilterOutlined />} data-testid="open-filter">
          {translate('buttons.filter')}
        </Button>
      </Badge>
    </Popover>
  );
}
