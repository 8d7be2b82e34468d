import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useCreate, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Checkbox, Drawer, Form, Input, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useCollectionName } from '../../app/system-labels.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { WEBHOOK_ACTIONS, WEBHOOK_METHODS, checkHeaderName, checkHeaderValue, checkUrl, toFormValues, toWebhookPayload, type WebhookFormValues, type WebhookRecord } from './webhook-rules.ts';

const FIELD_NAMES = ['name', 'method', 'url', 'status', 'data', 'headers', 'actions', 'collections'] as const;

/** Creates a webhook (webhook null) or edits one, checking every field as the server does. */
export function WebhookDrawer({ webhook, open, onClose }: { webhook: WebhookRecord | null; open: boolean; onClose(): void }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const collectionName = useCollectionName();
  const [form] = Form.useForm<WebhookFormValues & { active?: boolean }>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: create, mutation: creating } = useCreate();
  const { mutateAsync: update, mutation: updating } = useUpdate();
  const rule = (check: (value: string | undefined) => string | null) => ({
    validator: async (_: unknown, value: string | undefined) => {
      const key = check(value);
      if (key) throw new Error(translate(key));
    },
  });

  useEffect(() => {
    if (!open) return;
    setError(null);
    const values = toFormValues(webhook);
    form.resetFields();
    form.setFieldsValue({ ...values, active: values.status === 'active' });
  }, [open, webhook, form]);

  const submit = async ({ active, ...values }: WebhookFormValues & { active?: boolean }) => {
    setError(null);
    const payload = toWebhookPayload({ ...values, status: active ? 'active' : 'inactive' });
    try {
      if (webhook) await update({ resource: 'webhooks', id: webhook.id, values: payload, successNotification: false, errorNotification: false });
      else await create({ resource: 'webhooks', values: payload, successNotification: false, errorNotification: false });
      onClose();
    } catch (failure) {
      setError(applyServerErrors(form, failure, FIELD_NAMES));
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={560}
      title={translate(webhook ? 'webhooks.edit' : 'webhooks.create')}
      extra={
        <Space>
          <Button onClick={onClose}>{translate('shared.actions.cancel')}</Button>
          <Button type="primary" loading={creating.isPending || updating.isPending} onClick={() => form.submit()} data-testid="webhook-save">
            {translate('shared.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="webhook-form">
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="name" label={translate('webhooks.fields.name')} rules={[{ required: true, whitespace: true, message: translate('webhooks.errors.required') }]}>
          <Input data-testid="webhook-name" />
        </Form.Item>
        <Space.Compact block>
          <Form.Item name="method" label={translate('webhooks.fields.method')} style={{ width: 110 }} rules={[{ required: true, message: translate('webhooks.errors.required') }]}>
            <Select options={WEBHOOK_METHODS.map((method) => ({ value: method, label: method }))} data-testid="webhook-method" />
          </Form.Item>
          <Form.Item name="url" label={translate('webhooks.fields.url')} style={{ flex: 1 }} rules={[rule(checkUrl)]}>
            <Input placeholder="https://" data-testid="webhook-url" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="active" label={translate('webhooks.fields.status')} valuePropName="checked">
          <Switch data-testid="webhook-active" />
        </Form.Item>
        <Form.Item name="actions" label={translate('webhooks.fields.actions')} rules={[{ required: true, type: 'array', min: 1, message: translate('webhooks.errors.actions') }]}>
          <Checkbox.Group options={WEBHOOK_ACTIONS.map((action) => ({ value: action, label: translate(`webhooks.actions.${action}`) }))} />
        </Form.Item>
        <Form.Item name="collections" label={translate('webhooks.fields.collections')} rules={[{ required: true, type: 'array', min: 1, message: translate('webhooks.errors.collections') }]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            data-testid="webhook-collections"
            options={schema.collections.filter((collection) => collection.schema).map((collection) => ({ value: collection.collection, label: collectionName(collection.collection, collection) }))}
          />
        </Form.Item>
        <Form.Item label={translate('webhooks.fields.headers')}>
          <Form.List name="headers">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
                    <Form.Item name={[row.name, 'header']} rules={[rule(checkHeaderName)]}>
                      <Input placeholder={translate('webhooks.fields.header')} data-testid={`webhook-header-${row.name}`} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'value']} rules={[rule(checkHeaderValue)]}>
                      <Input placeholder={translate('webhooks.fields.value')} data-testid={`webhook-header-value-${row.name}`} />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(row.name)} aria-label={translate('shared.actions.remove')} />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ header: '', value: '' })} data-testid="webhook-add-header">
                  {translate('webhooks.addHeader')}
                </Button>
              </>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="data" label={translate('webhooks.fields.data')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
