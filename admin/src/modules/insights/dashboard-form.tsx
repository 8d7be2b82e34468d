import { useCreate, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, ColorPicker, Form, Input, Modal, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { CollectionIcon, ICON_NAMES } from '../../components/collection-icon.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import type { DashboardRecord } from './panel-types.ts';

interface DashboardValues {
  name: string;
  icon: string;
  color?: string | null;
  note?: string | null;
}

const colorValue = (color: { toHexString(): string } | null) => (color ? color.toHexString() : null);

/** Creates a dashboard (dashboard null) or edits its name, icon, colour and note. */
export function DashboardForm({ open, dashboard, onClose }: { open: boolean; dashboard: DashboardRecord | null; onClose(created?: string): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<DashboardValues>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: create, mutation: creating } = useCreate<DashboardRecord>();
  const { mutateAsync: update, mutation: updating } = useUpdate();

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue({ name: dashboard?.name ?? '', icon: dashboard?.icon ?? 'dashboard', color: dashboard?.color ?? null, note: dashboard?.note ?? '' });
  }, [open, dashboard, form]);

  const submit = async (values: DashboardValues) => {
    setError(null);
    const payload = { name: values.name.trim(), icon: values.icon, color: values.color || null, note: values.note?.trim() || null };
    try {
      if (dashboard) {
        await update({ resource: 'dashboards', id: dashboard.id, values: payload, successNotification: false, errorNotification: false });
        onClose();
      } else {
        const answer = await create({ resource: 'dashboards', values: payload, successNotification: false, errorNotification: false });
        onClose(answer.data?.id as string | undefined);
      }
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['name', 'icon', 'color', 'note']));
    }
  };

  return (
    <Modal
      open={open}
      title={translate(dashboard ? 'insights.dashboard.edit' : 'insights.dashboard.create')}
      okText={translate('shared.actions.save')}
      cancelText={translate('shared.actions.cancel')}
      confirmLoading={creating.isPending || updating.isPending}
      onCancel={() => onClose()}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'dashboard-save' } as never}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="dashboard-form">
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="name" label={translate('insights.dashboard.name')} rules={[{ required: true, whitespace: true, message: translate('insights.errors.required') }]}>
          <Input data-testid="dashboard-name" />
        </Form.Item>
        <Space align="start" size={16}>
          <Form.Item name="icon" label={translate('insights.dashboard.icon')} rules={[{ required: true, message: translate('insights.errors.required') }]}>
            <Select
              style={{ width: 200 }}
              data-testid="dashboard-icon"
              options={ICON_NAMES.map((name) => ({ value: name, label: <Space><CollectionIcon name={name} />{name}</Space> }))}
            />
          </Form.Item>
          <Form.Item name="color" label={translate('insights.dashboard.color')} getValueFromEvent={colorValue}>
            <ColorPicker allowClear format="hex" showText data-testid="dashboard-color" />
          </Form.Item>
        </Space>
        <Form.Item name="note" label={translate('insights.dashboard.note')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} data-testid="dashboard-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
