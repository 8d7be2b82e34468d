import { useCreate, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { applyServerErrors } from '../shared/server-errors.ts';
import { OPERATION_TYPES, OptionJsonError, toOperationOptions, toOptionValues, type OperationRecord, type OptionSpec } from './operation-types.ts';

/** Whether a JSON option's text parses (empty is fine: the option is left out). */
function isJsonText(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  try {
    JSON.parse(String(value));
    return true;
  } catch {
    return false;
  }
}

/** Where a new operation goes: the flow's first, or the resolve / reject path of an operation. */
export type OperationSlot = { kind: 'first' } | { kind: 'resolve' | 'reject'; parent: OperationRecord };

/** One option's input; Form.Item hands it value/checked and onChange, which go on to the antd control. */
function OptionInput({ spec, ...control }: { spec: OptionSpec } & Record<string, any>) {
  const props = { ...control, 'data-testid': `operation-option-${spec.name}` };
  switch (spec.kind) {
    case 'number':
      return <InputNumber min={0} style={{ width: 200 }} {...props} />;
    case 'boolean':
      return <Switch {...props} />;
    case 'select':
      return <Select allowClear options={(spec.choices ?? []).map((value) => ({ value, label: value }))} {...props} />;
    case 'textarea':
      return <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} {...props} />;
    case 'json':
    case 'code':
      return <Input.TextArea autoSize={{ minRows: 3, maxRows: 14 }} style={{ fontFamily: 'monospace' }} spellCheck={false} {...props} />;
    default:
      return <Input {...props} />;
  }
}

/**
 * Adds an operation to a slot of the chain (created, then linked from its parent or as the flow's first)
 * or edits one: key, name, type, and the options form of its type.
 */
export function OperationModal({ flowId, slot, editing, onClose, onSaved }: { flowId: string; slot: OperationSlot | null; editing: OperationRecord | null; onClose(): void; onSaved(): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm();
  const type = Form.useWatch('type', form) as string | undefined;
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();
  const [saving, setSaving] = useState(false);
  const open = slot !== null || editing !== null;

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    if (editing) form.setFieldsValue({ key: editing.key, name: editing.name, type: editing.type, options: toOptionValues(editing.type, editing.options) });
  }, [open, editing, form]);

  const submit = async (values: { key: string; name?: string; type: string; options?: Record<string, unknown> }) => {
    setError(null);
    let options: Record<string, unknown>;
    try {
      options = toOperationOptions(values.type, values.options ?? {});
    } catch (failure) {
      if (!(failure instanceof OptionJsonError)) throw failure;
      form.setFields([{ name: ['options', failure.option], errors: [translate('flows.errors.json')] }]);
      return;
    }
    const payload = { key: values.key.trim(), name: values.name?.trim() || null, type: values.type, options };
    setSaving(true);
    try {
      if (editing) {
        await update({ resource: 'operations', id: editing.id, values: payload, successNotification: false, errorNotification: false });
      } else if (slot) {
        const created = await create({ resource: 'operations', values: { ...payload, flow: flowId, position_x: 1, position_y: 1 }, successNotification: false, errorNotification: false });
        const id = created.data.id;
        if (slot.kind === 'first') await update({ resource: 'flows', id: flowId, values: { operation: id }, successNotification: false, errorNotification: false });
        else await update({ resource: 'operations', id: slot.parent.id, values: { [slot.kind]: id }, successNotification: false, errorNotification: false });
      }
      onSaved();
      onClose();
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['key', 'name', 'type']));
    } finally {
      setSaving(false);
    }
  };

  const specs = type ? (OPERATION_TYPES[type] ?? []) : [];
  return (
    <Modal
      open={open}
      width={640}
      title={translate(editing ? 'flows.operations.edit' : 'flows.operations.add')}
      okText={translate('shared.actions.save')}
      cancelText={translate('shared.actions.cancel')}
      confirmLoading={saving}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'operation-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="type" label={translate('flows.operations.type')} rules={[{ required: true, message: translate('flows.errors.required') }]}>
          <Select
            showSearch
            // Searched by the name shown (antd searches the value by default: "Atualizar" found nothing in pt-BR).
            optionFilterProp="label"
            disabled={editing !== null}
            options={Object.keys(OPERATION_TYPES).map((value) => ({ value, label: translate(`flows.operationTypes.${value}`) }))}
            data-testid="operation-type"
          />
        </Form.Item>
        <Form.Item name="key" label={translate('flows.operations.key')} extra={translate('flows.operations.keyHelp')} rules={[{ required: true, pattern: /^[A-Za-z0-9_$-]+$/, message: translate('flows.errors.operationKey') }]}>
          <Input data-testid="operation-key" />
        </Form.Item>
        <Form.Item name="name" label={translate('flows.fields.name')}>
          <Input data-testid="operation-name" />
        </Form.Item>
        {specs.map((spec) => (
          <Form.Item
            key={`${type}-${spec.name}`}
            name={['options', spec.name]}
            label={translate(`flows.operationOptions.${spec.name}`, spec.name)}
            valuePropName={spec.kind === 'boolean' ? 'checked' : 'value'}
            rules={[
              ...(spec.required ? [{ required: true, message: translate('flows.errors.required') }] : []),
              ...(spec.kind === 'json' ? [{ validator: async (_rule: unknown, value: unknown) => (isJsonText(value) ? undefined : Promise.reject(new Error(translate('flows.errors.json')))) }] : []),
            ]}
          >
            <OptionInput spec={spec} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
