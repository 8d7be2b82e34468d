import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useCreate, useDelete, useList, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, Modal, Popconfirm, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { FLOW_ACCOUNTABILITY, FLOW_TRIGGERS, toFlowPayload, type FlowRecord } from './flow-options.ts';

const FIELDS = ['id', 'name', 'icon', 'color', 'description', 'status', 'trigger', 'accountability', 'options', 'operation'];

function CreateFlowModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCreate();
  const navigate = useNavigate();
  const submit = async (values: Record<string, unknown>) => {
    setError(null);
    try {
      const created = await mutateAsync({ resource: 'flows', values: toFlowPayload(values), successNotification: false, errorNotification: false });
      form.resetFields();
      onClose();
      // Straight on to its trigger options and operations.
      navigate(`/flows/${created.data.id}`);
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['name', 'icon', 'color', 'description', 'trigger', 'accountability']));
    }
  };
  return (
    <Modal open={open} title={translate('flows.create')} okText={translate('shared.actions.create')} cancelText={translate('shared.actions.cancel')} confirmLoading={mutation.isPending} onCancel={onClose} onOk={() => form.submit()} okButtonProps={{ 'data-testid': 'flow-save' } as never} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ active: true, trigger: 'manual', accountability: 'all' }} onFinish={submit} preserve={false}>
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="name" label={translate('flows.fields.name')} rules={[{ required: true, whitespace: true, message: translate('flows.errors.required') }]}>
          <Input data-testid="flow-name" />
        </Form.Item>
        <Form.Item name="icon" label={translate('flows.fields.icon')}>
          <Input placeholder="bolt" />
        </Form.Item>
        <Form.Item name="color" label={translate('flows.fields.color')}>
          <Input type="color" style={{ width: 80 }} />
        </Form.Item>
        <Form.Item name="description" label={translate('flows.fields.description')}>
          <Input.TextArea autoSize={{ minRows: 2 }} />
        </Form.Item>
        <Form.Item name="trigger" label={translate('flows.fields.trigger')}>
          <Select options={FLOW_TRIGGERS.map((trigger) => ({ value: trigger, label: translate(`flows.triggers.${trigger}`) }))} data-testid="flow-trigger" />
        </Form.Item>
        <Form.Item name="accountability" label={translate('flows.fields.accountability')}>
          <Select options={[...FLOW_ACCOUNTABILITY, 'none'].map((choice) => ({ value: choice, label: translate(`flows.accountability.${choice}`) }))} />
        </Form.Item>
        <Form.Item name="active" label={translate('flows.fields.status')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FlowsList() {
  const { translate } = useTranslation();
  const [creating, setCreating] = useState(false);
  const { result, query } = useList<FlowRecord>({ resource: 'flows', pagination: { mode: 'off' }, sorters: [{ field: 'name', order: 'asc' }], meta: { fields: FIELDS } });
  const { mutateAsync: update } = useUpdate();
  const { mutateAsync: remove } = useDelete();
  return (
    <>
      <PageHeader
        title={translate('flows.title')}
        subtitle={translate('flows.subtitle')}
        testId="flows-title"
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="flow-create">
            {translate('flows.create')}
          </Button>
        }
      />
      <Card size="small">
        <Table<FlowRecord>
          rowKey="id"
          size="middle"
          loading={query.isLoading}
          dataSource={result.data}
          pagination={false}
          onRow={(flow) => ({ 'data-testid': `flow-row-${flow.name}` }) as never}
          columns={[
            { key: 'colour', width: 40, render: (_, flow) => <span style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 7, background: flow.color ?? '#d9d9d9' }} /> },
            { title: translate('flows.fields.icon'), dataIndex: 'icon', key: 'icon', width: 90, render: (icon: string | null) => icon ?? '' },
            { title: translate('flows.fields.name'), dataIndex: 'name', key: 'name', render: (name: string, flow) => <Link to={`/flows/${flow.id}`} data-testid={`flow-open-${name}`}>{name}</Link> },
            { title: translate('flows.fields.trigger'), dataIndex: 'trigger', key: 'trigger', render: (trigger: string | null) => (trigger ? <Tag>{translate(`flows.triggers.${trigger}`, trigger)}</Tag> : '') },
            {
              title: translate('flows.fields.status'),
              key: 'status',
              width: 90,
              render: (_, flow) => <Switch size="small" checked={flow.status === 'active'} aria-label={translate('flows.fields.status')} data-testid={`flow-status-${flow.name}`} onChange={(on) => update({ resource: 'flows', id: flow.id, values: { status: on ? 'active' : 'inactive' }, successNotification: false })} />,
            },
            {
              key: 'tools',
              width: 60,
              render: (_, flow) => (
                <Popconfirm title={translate('flows.deleteConfirm')} okText={translate('shared.actions.delete')} cancelText={translate('shared.actions.cancel')} okButtonProps={{ danger: true }} onConfirm={() => remove({ resource: 'flows', id: flow.id, successNotification: false })}>
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={translate('shared.actions.delete')} />
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
      <CreateFlowModal open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

/** The flows screen (administrators only). */
export default function FlowsPage() {
  return (
    <AdminOnly>
      <FlowsList />
    </AdminOnly>
  );
}
