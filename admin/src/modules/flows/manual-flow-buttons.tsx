import { ThunderboltOutlined } from '@ant-design/icons';
import { useList, useTranslation } from '@refinedev/core';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Switch, Typography } from 'antd';
import { useState } from 'react';
import { apiRequest } from '../../providers/http-client.ts';
import type { FlowRecord } from './flow-options.ts';

interface ConfirmField {
  field: string;
  name?: string;
  type?: string;
}

function fieldInput(type: string | undefined, testId: string) {
  if (type === 'integer') return <InputNumber style={{ width: 200 }} data-testid={testId} />;
  if (type === 'boolean') return <Switch data-testid={testId} />;
  if (type === 'text') return <Input.TextArea autoSize={{ minRows: 2 }} data-testid={testId} />;
  return <Input data-testid={testId} />;
}

/** Whether a manual flow offers its button here (options.location: item, collection or both; unset means both). */
function shownAt(flow: FlowRecord, collection: string, location: 'item' | 'collection'): boolean {
  const options = flow.options ?? {};
  const collections = Array.isArray(options.collections) ? (options.collections as string[]) : [];
  const where = typeof options.location === 'string' ? options.location : 'both';
  return collections.includes(collection) && (where === 'both' || where === location);
}

/**
 * The buttons of the active manual flows on a collection, for the item page (keys: the item) or the
 * collection list (keys: the selected items). A flow that asks for confirmation opens a dialog with its
 * confirmation fields; the run is `POST /flows/trigger/:id` with {collection, keys, ...fields}.
 */
export function ManualFlowButtons({ collection, keys, location }: { collection: string; keys: Array<string | number>; location: 'item' | 'collection' }) {
  const { translate } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [confirming, setConfirming] = useState<FlowRecord | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { result } = useList<FlowRecord>({
    resource: 'flows',
    pagination: { mode: 'off' },
    filters: [
      { field: 'trigger', operator: 'eq', value: 'manual' },
      { field: 'status', operator: 'eq', value: 'active' },
    ],
    sorters: [{ field: 'name', order: 'asc' }],
    meta: { fields: ['id', 'name', 'icon', 'color', 'options', 'trigger', 'status'] },
    errorNotification: false,
  });
  const flows = (result.data ?? []).filter((flow) => shownAt(flow, collection, location));
  if (flows.length === 0) return null;

  const run = async (flow: FlowRecord, fields: Record<string, unknown>) => {
    setRunning(flow.id);
    setError(null);
    try {
      await apiRequest(`/flows/trigger/${flow.id}`, { method: 'POST', body: { ...fields, collection, keys } });
      setConfirming(null);
      void message.success(translate('flows.manual.started', { name: flow.name }));
    } catch (failure) {
      setError((failure as Error).message);
      if (!confirming) void message.error((failure as Error).message);
    } finally {
      setRunning(null);
    }
  };
  const start = (flow: FlowRecord) => {
    if (flow.options?.requireConfirmation === true) {
      setError(null);
      form.resetFields();
      setConfirming(flow);
    } else void run(flow, {});
  };
  const fields = (Array.isArray(confirming?.options?.fields) ? confirming.options.fields : []) as ConfirmField[];

  return (
    <>
      {flows.map((flow) => (
        <Button
          key={flow.id}
          icon={<ThunderboltOutlined />}
          style={flow.color ? { borderColor: flow.color } : undefined}
          disabled={keys.length === 0 && flow.options?.requireSelection !== false}
          loading={running === flow.id && !confirming}
          onClick={() => start(flow)}
          data-testid={`manual-flow-${flow.name}`}
        >
          {flow.name}
        </Button>
      ))}
      <Modal
        open={confirming !== null}
        title={translate('flows.manual.confirmTitle', { name: confirming?.name ?? '' })}
        okText={translate('flows.manual.run')}
        cancelText={translate('shared.actions.cancel')}
        confirmLoading={running !== null}
        onCancel={() => setConfirming(null)}
        onOk={() => form.submit()}
        okButtonProps={{ 'data-testid': 'manual-flow-confirm' } as never}
        destroyOnHidden
      >
        {typeof confirming?.options?.confirmationDescription === 'string' ? <Typography.Paragraph>{confirming.options.confirmationDescription}</Typography.Paragraph> : null}
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form form={form} layout="vertical" onFinish={(values) => confirming && void run(confirming, values)} preserve={false}>
          {fields.map((field) => (
            <Form.Item key={field.field} name={field.field} label={field.name || field.field} valuePropName={field.type === 'boolean' ? 'checked' : 'value'}>
              {fieldInput(field.type, `manual-flow-field-${field.field}`)}
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </>
  );
}
