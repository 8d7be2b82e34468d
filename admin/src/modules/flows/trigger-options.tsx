import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Form, Input, Select, Space, Switch } from 'antd';
import { Cron } from 'croner';

/** Whether a cron expression parses the way the server's scheduler (croner, seconds first) reads it. */
export function isValidCron(expression: unknown): boolean {
  if (typeof expression !== 'string' || expression.trim() === '') return false;
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const SCOPES = ['items.create', 'items.update', 'items.delete'];
const CONFIRM_FIELD_TYPES = ['string', 'text', 'integer', 'boolean'];

/** The options form of one trigger type (Directus 10 option names, stored in flows.options). */
export function TriggerOptions({ trigger }: { trigger: string | null | undefined }) {
  const { translate } = useTranslation();
  const label = (name: string) => translate(`flows.options.${name}`);
  const tags = (testId: string) => <Select mode="tags" tokenSeparators={[',']} open={false} suffixIcon={null} data-testid={testId} />;
  switch (trigger) {
    case 'event':
      return (
        <>
          <Form.Item name={['options', 'type']} label={label('type')} rules={[{ required: true, message: translate('flows.errors.required') }]}>
            <Select options={['filter', 'action'].map((value) => ({ value, label: translate(`flows.eventTypes.${value}`) }))} data-testid="trigger-type" />
          </Form.Item>
          <Form.Item name={['options', 'scope']} label={label('scope')} rules={[{ required: true, message: translate('flows.errors.required') }]}>
            <Select mode="multiple" options={SCOPES.map((value) => ({ value, label: value }))} data-testid="trigger-scope" />
          </Form.Item>
          <Form.Item name={['options', 'collections']} label={label('collections')}>
            {tags('trigger-collections')}
          </Form.Item>
        </>
      );
    case 'schedule':
      return (
        <Form.Item
          name={['options', 'cron']}
          label={label('cron')}
          extra={translate('flows.options.cronHelp')}
          rules={[{ validator: async (_rule, value) => (isValidCron(value) ? undefined : Promise.reject(new Error(translate('flows.errors.cron')))) }]}
        >
          <Input placeholder="0 */5 * * * *" data-testid="trigger-cron" />
        </Form.Item>
      );
    case 'webhook':
      return (
        <>
          <Form.Item name={['options', 'method']} label={label('method')}>
            <Select options={['GET', 'POST'].map((value) => ({ value, label: value }))} data-testid="trigger-method" />
          </Form.Item>
          <Form.Item name={['options', 'async']} label={label('async')} valuePropName="checked">
            <Switch data-testid="trigger-async" />
          </Form.Item>
          <Form.Item name={['options', 'return']} label={label('return')}>
            <Input placeholder="$last" />
          </Form.Item>
        </>
      );
    case 'manual':
      return (
        <>
          <Form.Item name={['options', 'collections']} label={label('collections')} rules={[{ required: true, message: translate('flows.errors.required') }]}>
            {tags('trigger-collections')}
          </Form.Item>
          <Form.Item name={['options', 'location']} label={label('location')}>
            <Select placeholder={translate('flows.locations.both')} options={['both', 'item', 'collection'].map((value) => ({ value, label: translate(`flows.locations.${value}`) }))} data-testid="trigger-location" />
          </Form.Item>
          <Form.Item name={['options', 'requireConfirmation']} label={label('requireConfirmation')} valuePropName="checked">
            <Switch data-testid="trigger-confirm" />
          </Form.Item>
          <Form.Item name={['options', 'confirmationDescription']} label={label('confirmationDescription')}>
            <Input data-testid="trigger-confirm-text" />
          </Form.Item>
          <Form.Item label={label('fields')}>
            <Form.List name={['options', 'fields']}>
              {(items, { add, remove }) => (
                <>
                  {items.map((item, index) => (
                    <Space key={item.key} align="baseline" wrap style={{ rowGap: 0 }}>
                      <Form.Item name={[item.name, 'field']} rules={[{ required: true, pattern: /^[A-Za-z0-9_]+$/, message: translate('flows.errors.fieldKey') }]}>
                        <Input style={{ width: 110 }} placeholder={translate('flows.options.fieldKey')} data-testid={`confirm-field-key-${index}`} />
                      </Form.Item>
                      <Form.Item name={[item.name, 'name']}>
                        <Input style={{ width: 150 }} placeholder={translate('flows.options.fieldName')} data-testid={`confirm-field-name-${index}`} />
                      </Form.Item>
                      <Form.Item name={[item.name, 'type']} initialValue="string">
                        <Select style={{ width: 110 }} options={CONFIRM_FIELD_TYPES.map((value) => ({ value, label: translate(`flows.fieldTypes.${value}`) }))} />
                      </Form.Item>
                      <Button type="text" icon={<MinusCircleOutlined />} aria-label={translate('shared.actions.delete')} onClick={() => remove(item.name)} />
                    </Space>
                  ))}
                  <Button icon={<PlusOutlined />} onClick={() => add({ type: 'string' })} data-testid="confirm-field-add">
                    {translate('flows.options.addField')}
                  </Button>
                </>
              )}
            </Form.List>
          </Form.Item>
        </>
      );
    case 'operation':
      return (
        <Form.Item name={['options', 'return']} label={label('return')} extra={translate('flows.options.operationHelp')}>
          <Input placeholder="$last" />
        </Form.Item>
      );
    default:
      return null;
  }
}
