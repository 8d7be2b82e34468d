import { useCustomMutation, useTranslation } from '@refinedev/core';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import type { FieldInfo } from '../../content/schema/types.ts';
import { applyServerErrors } from '../shared/server-errors.ts';
import { FIELD_NAME_PATTERN, GROUP_INTERFACES, PRESENTATION_INTERFACES, nextSort, toGroupPayload, type AliasInterface } from './field-types.ts';

/**
 * Creates a group field (group-detail, group-accordion or group-raw; fields move into it from their
 * drawer) or a presentation field (divider, notice, links; its options are set in its drawer).
 */
export function GroupModal({ collection, siblings, open, onClose, onSaved }: { collection: string; siblings: FieldInfo[]; open: boolean; onClose(): void; onSaved(): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<{ field: string; interface: AliasInterface }>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: create, mutation } = useCustomMutation();
  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue({ interface: 'group-detail' });
  }, [open, form]);
  const save = async (values: { field: string; interface: AliasInterface }) => {
    setError(null);
    try {
      await create({ url: `/fields/${encodeURIComponent(collection)}`, method: 'post', values: toGroupPayload(values, nextSort(siblings)), successNotification: false, errorNotification: false });
      onSaved();
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['field', 'interface']));
    }
  };
  return (
    <Modal open={open} title={translate('dataModel.group.create')} onCancel={onClose} onOk={() => form.submit()} okButtonProps={{ loading: mutation.isPending, 'data-testid': 'group-save' } as never} destroyOnHidden>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" onFinish={save}>
        <Form.Item
          name="field"
          label={translate('dataModel.field.name')}
          rules={[
            { required: true, message: translate('dataModel.rules.required') },
            { pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') },
          ]}
        >
          <Input autoFocus data-testid="group-name" />
        </Form.Item>
        <Form.Item name="interface" label={translate('dataModel.field.interface')}>
          <Select
            options={[
              { label: translate('dataModel.group.groups'), options: GROUP_INTERFACES.map((value) => ({ value, label: translate(`dataModel.interfaces.${value}`) })) },
              { label: translate('dataModel.group.presentation'), options: PRESENTATION_INTERFACES.map((value) => ({ value, label: translate(`dataModel.interfaces.${value}`) })) },
            ]}
            data-testid="group-interface"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
