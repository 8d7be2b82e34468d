import { useTranslation } from '@refinedev/core';
import { Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { useCollectionName } from '../../app/system-labels.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { PanelDefinition, PanelOptionField } from '../../extensions/kinds.ts';

/** The settings form of an extension's panel, from the `options` its definition lists (docs/extensions.md). */
export function ExtensionPanelOptions({ definition }: { definition: PanelDefinition | undefined }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const collectionName = useCollectionName();
  const fields = definition?.options ?? [];
  if (fields.length === 0) return <Typography.Text type="secondary">{translate('insights.panel.extensionOptionsNone')}</Typography.Text>;
  const collections = schema.collections.filter((entry) => entry.schema).map((entry) => ({ value: entry.collection, label: collectionName(entry.collection, entry) }));
  const input = (field: PanelOptionField) => {
    const testId = `panel-option-${field.field}`;
    switch (field.type) {
      case 'collection':
        return <Select showSearch optionFilterProp="label" options={collections} data-testid={testId} />;
      case 'number':
        return <InputNumber style={{ width: '100%' }} data-testid={testId} />;
      case 'boolean':
        return <Switch data-testid={testId} />;
      case 'text':
        return <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} data-testid={testId} />;
      default:
        return <Input data-testid={testId} />;
    }
  };
  return (
    <>
      {fields.map((field) => (
        <Form.Item
          key={field.field}
          name={['options', field.field]}
          label={field.name}
          valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
          rules={field.required ? [{ required: true, message: translate('insights.errors.required') }] : []}
        >
          {input(field)}
        </Form.Item>
      ))}
    </>
  );
}
