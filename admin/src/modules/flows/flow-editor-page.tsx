import { ArrowLeftOutlined } from '@ant-design/icons';
import { useDelete, useList, useOne, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Card, Col, Form, Input, Result, Row, Select, Space, Spin, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AdminOnly } from '../shared/admin-only.tsx';
import { PageHeader } from '../shared/page-header.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { FLOW_ACCOUNTABILITY, FLOW_TRIGGERS, type FlowRecord } from './flow-options.ts';
import { OperationGraph } from './operation-graph.tsx';
import { OperationModal, type OperationSlot } from './operation-modal.tsx';
import type { OperationRecord } from './operation-types.ts';
import { RunLog } from './run-log.tsx';
import { TriggerOptions } from './trigger-options.tsx';

const FLOW_FIELDS = ['id', 'name', 'icon', 'color', 'description', 'status', 'trigger', 'accountability', 'options', 'operation'];
const OPERATION_FIELDS = ['id', 'key', 'name', 'type', 'options', 'resolve', 'reject', 'position_x', 'position_y', 'flow'];

/** Empty option values are left out, so a trigger's options hold only what was set. */
function cleanOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)));
}

function FlowEditor({ id }: { id: string }) {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const trigger = Form.useWatch('trigger', form) as string | undefined;
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [slot, setSlot] = useState<OperationSlot | null>(null);
  const [editing, setEditing] = useState<OperationRecord | null>(null);
  const [runsKey, setRunsKey] = useState(0);
  const { result: flow, query: flowQuery } = useOne<FlowRecord>({ resource: 'flows', id, meta: { fields: FLOW_FIELDS } });
  const { result: operations, query: operationsQuery } = useList<OperationRecord>({
    resource: 'operations',
    pagination: { mode: 'off' },
    filters: [{ field: 'flow', operator: 'eq', value: id }],
    meta: { fields: OPERATION_FIELDS },
  });
  const { mutateAsync: update, mutation: saving } = useUpdate();
  const { mutateAsync: remove } = useDelete();

  useEffect(() => {
    if (!flow) return;
    form.setFieldsValue({ name: flow.name, description: flow.description, active: flow.status === 'active', trigger: flow.trigger, accountability: flow.accountability ?? 'none', options: flow.options ?? {} });
  }, [flow, form]);

  if (flowQuery.isError) return <Result status="404" title={translate('flows.editor.notFound')} />;
  if (!flow) return <Spin />;

  const refresh = () => {
    void flowQuery.refetch();
    void operationsQuery.refetch();
  };
  const save = async (values: { name: string; description?: string; active: boolean; trigger: string; accountability: string; options?: Record<string, unknown> }) => {
    setError(null);
    setSaved(false);
    try {
      await update({
        resource: 'flows',
        id,
        values: {
          name: values.name.trim(),
          description: values.description?.trim() || null,
          status: values.active ? 'active' : 'inactive',
          trigger: values.trigger,
          accountability: values.accountability === 'none' ? null : values.accountability,
          options: cleanOptions(values.options),
        },
        successNotification: false,
        errorNotification: false,
      });
      setSaved(true);
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['name', 'description', 'trigger', 'accountability']));
    }
  };

  return (
    <>
      <PageHeader
        title={flow.name}
        subtitle={translate('flows.editor.subtitle')}
        testId="flow-editor-title"
        actions={
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/flows')}>
            {translate('shared.actions.back')}
          </Button>
        }
      />
      <Row gutter={16}>
        <Col xs={24} lg={9}>
          <Card size="small" title={translate('flows.editor.trigger')} style={{ marginBottom: 16 }}>
            <Form form={form} layout="vertical" onFinish={save} onValuesChange={() => setSaved(false)}>
              {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="flow-editor-error" /> : null}
              {saved ? <Alert type="success" showIcon message={translate('flows.editor.saved')} style={{ marginBottom: 16 }} data-testid="flow-editor-saved" /> : null}
              <Form.Item name="name" label={translate('flows.fields.name')} rules={[{ required: true, whitespace: true, message: translate('flows.errors.required') }]}>
                <Input data-testid="flow-editor-name" />
              </Form.Item>
              <Form.Item name="description" label={translate('flows.fields.description')}>
                <Input.TextArea autoSize={{ minRows: 1 }} />
              </Form.Item>
              <Space size="large">
                <Form.Item name="active" label={translate('flows.fields.status')} valuePropName="checked">
                  <Switch />
                </Form.Item>
                <Form.Item name="accountability" label={translate('flows.fields.accountability')}>
                  <Select style={{ width: 200 }} options={[...FLOW_ACCOUNTABILITY, 'none'].map((choice) => ({ value: choice, label: translate(`flows.accountability.${choice}`) }))} />
                </Form.Item>
              </Space>
              <Form.Item name="trigger" label={translate('flows.fields.trigger')} rules={[{ required: true, message: translate('flows.errors.required') }]}>
                <Select options={FLOW_TRIGGERS.map((value) => ({ value, label: translate(`flows.triggers.${value}`) }))} data-testid="flow-editor-trigger" />
              </Form.Item>
              <TriggerOptions trigger={trigger} />
              <Button type="primary" htmlType="submit" loading={saving.isPending} data-testid="flow-editor-save">
                {translate('shared.actions.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card size="small" title={translate('flows.editor.operations')} style={{ marginBottom: 16 }}>
            <OperationGraph
              first={flow.operation}
              operations={operations.data}
              triggerLabel={translate(`flows.triggers.${flow.trigger ?? 'manual'}`)}
              actions={{
                onAdd: (next) => setSlot(next),
                onEdit: (operation) => setEditing(operation),
                onDelete: (operation) => void remove({ resource: 'operations', id: operation.id, successNotification: false }).then(refresh),
              }}
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={translate('flows.runs.title')}>
        <RunLog flowId={id} refreshKey={runsKey} />
      </Card>
      <OperationModal
        flowId={id}
        slot={slot}
        editing={editing}
        onClose={() => {
          setSlot(null);
          setEditing(null);
        }}
        onSaved={() => {
          refresh();
          setRunsKey((key) => key + 1);
        }}
      />
    </>
  );
}

/** `/flows/:id`: a flow's trigger and options, its operation chain, and its run log (administrators). */
export default function FlowEditorPage() {
  const { id } = useParams();
  return <AdminOnly>{id ? <FlowEditor id={id} /> : null}</AdminOnly>;
}
