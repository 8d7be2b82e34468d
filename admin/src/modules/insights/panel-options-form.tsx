import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, ColorPicker, Form, Input, InputNumber, Select, Space, Switch, type FormInstance } from 'antd';
import { useCollectionName } from '../../app/system-labels.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { JsonRuleInput } from '../shared/json-rule-input.tsx';
import { OPTION_FIELDS, choiceKey, type OptionField } from './option-fields.ts';
import { EMPTY_FILTER, PanelFilterInput } from './panel-filter-input.tsx';
import { COMPARISONS, VARIABLE_NAME, type PanelType } from './panel-types.ts';

const DATE_TYPES = ['date', 'dateTime', 'timestamp'];

/** antd's ColorPicker gives a Color object; the options store "#rrggbb" (or nothing when cleared). */
const colorValue = (color: { toHexString(): string } | null) => (color ? color.toHexString() : undefined);

/**
 * The `options.*` form items of one panel type (the panel editor holds the form). The filter is built in
 * `filterGroup`, or typed as JSON in `filterText` when `filterAsJson` (a stored filter the builder cannot show).
 */
export function PanelOptionsForm({ type, form, variables, filterAsJson }: { type: PanelType; form: FormInstance; variables: readonly string[]; filterAsJson: boolean }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const collectionName = useCollectionName();
  const collection = Form.useWatch(['options', 'collection'], form) as string | undefined;
  const fields = collection ? schema.fieldsOf(collection).filter((field) => field.type !== 'alias') : [];
  const fieldOptions = (onlyDates: boolean) => fields.filter((field) => !onlyDates || DATE_TYPES.includes(field.type)).map((field) => ({ value: field.field, label: field.field }));
  const required = (field: OptionField) => (field.required ? [{ required: true, message: translate('insights.errors.required') }] : []);
  const label = (key: string) => translate(`insights.options.${key}`);
  // The project's own collections first, then the system ones (users, activity …).
  const collectionChoices = schema.collections
    .filter((entry) => entry.schema)
    .sort((a, b) => Number(a.collection.startsWith('tessera_')) - Number(b.collection.startsWith('tessera_')))
    .map((entry) => ({ value: entry.collection, label: collectionName(entry.collection, entry) }));

  const item = (field: OptionField) => {
    const name = ['options', field.key];
    const testId = `panel-option-${field.key}`;
    switch (field.kind) {
      case 'collection':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)}>
            <Select
              showSearch
              optionFilterProp="label"
              data-testid={testId}
              options={collectionChoices}
              // Rules name fields of the collection they were built for.
              onChange={() => form.setFieldValue('filterGroup', EMPTY_FILTER)}
            />
          </Form.Item>
        );
      case 'field':
      case 'numberField':
      case 'dateField':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)}>
            <Select showSearch allowClear={!field.required} disabled={!collection} data-testid={testId} options={fieldOptions(field.kind === 'dateField')} />
          </Form.Item>
        );
      case 'select':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)}>
            <Select allowClear={!field.required} data-testid={testId} options={(field.choices ?? []).map((choice) => ({ value: choice, label: translate(choiceKey(field.key, choice)) }))} />
          </Form.Item>
        );
      case 'number':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)}>
            <InputNumber min={field.min} max={field.max} style={{ width: '100%' }} data-testid={testId} />
          </Form.Item>
        );
      case 'text':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)} extra={field.key === 'displayTemplate' ? translate('insights.options.displayTemplateHelp') : undefined}>
            <Input data-testid={testId} />
          </Form.Item>
        );
      case 'markdown':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} rules={required(field)}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} data-testid={testId} />
          </Form.Item>
        );
      case 'switch':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} valuePropName="checked">
            <Switch data-testid={testId} />
          </Form.Item>
        );
      case 'color':
        return (
          <Form.Item key={field.key} name={name} label={label(field.key)} getValueFromEvent={colorValue}>
            <ColorPicker allowClear format="hex" data-testid={testId} />
          </Form.Item>
        );
      case 'variableName':
        return (
          <Form.Item key={field.key} name={name} label={label('variable')} extra={translate('insights.options.variableHelp')} rules={[...required(field), { pattern: VARIABLE_NAME, message: translate('insights.errors.variableName') }]}>
            <Input data-testid={testId} />
          </Form.Item>
        );
      case 'filter':
        if (filterAsJson) return <JsonRuleInput key={field.key} name="filterText" label={label('filter')} kind="filter" extra={translate('insights.options.filterHelp')} placeholder='{"status": {"_eq": "published"}}' />;
        return (
          <Form.Item key={field.key} name="filterGroup" label={label('filter')} extra={translate('insights.options.filterBuilderHelp')}>
            <PanelFilterInput collection={collection} variables={variables} />
          </Form.Item>
        );
      case 'rules':
        return (
          <Form.Item key={field.key} label={label(field.key)}>
            <Form.List name={['options', 'conditionalFormatting']}>
              {(rows, { add, remove }) => (
                <>
                  {rows.map((row) => (
                    <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
                      <Form.Item name={[row.name, 'operator']} rules={[{ required: true, message: translate('insights.errors.required') }]}>
                        <Select style={{ width: 80 }} options={COMPARISONS.map((operator) => ({ value: operator, label: operator }))} />
                      </Form.Item>
                      <Form.Item name={[row.name, 'value']} rules={[{ required: true, message: translate('insights.errors.required') }]}>
                        <InputNumber style={{ width: 110 }} />
                      </Form.Item>
                      <Form.Item name={[row.name, 'color']} getValueFromEvent={colorValue} rules={[{ required: true, message: translate('insights.errors.required') }]}>
                        <ColorPicker format="hex" />
                      </Form.Item>
                      <MinusCircleOutlined onClick={() => remove(row.name)} aria-label={translate('shared.actions.remove')} />
                    </Space>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ operator: '>=', value: 0, color: '#2ECDA7' })}>
                    {translate('insights.options.addRule')}
                  </Button>
                </>
              )}
            </Form.List>
          </Form.Item>
        );
    }
  };

  return <>{OPTION_FIELDS[type].map(item)}</>;
}
