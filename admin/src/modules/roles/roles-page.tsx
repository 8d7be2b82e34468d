import { GlobalOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useCan, useCreate, useList, useTranslation } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRoleText } from '../../app/system-labels.ts';
import { PageHeader } from '../shared/page-header.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { useIsAdmin } from '../shared/use-admin.ts';
import { PUBLIC_ROLE_ID, ROLE_LIST_FIELDS, type RoleRecord } from './role-options.ts';

type Row = RoleRecord | { id: typeof PUBLIC_ROLE_ID; name: string; public: true };

/** Creates a role, then opens its editor. */
function CreateRoleModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const { isAdmin } = useIsAdmin();
  const [form] = Form.useForm<{ name: string; description?: string; app_access: boolean; admin_access: boolean }>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCreate<RoleRecord>();
  return (
    <Modal open={open} title={translate('roles.create.title')} okText={translate('shared.actions.create')} cancelText={translate('shared.actions.cancel')} confirmLoading={mutation.isPending} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ app_access: true, admin_access: false }}
        onFinish={async (values) => {
          setError(null);
          try {
            const created = await mutateAsync({ resource: 'roles', values, successNotification: false, errorNotification: false });
            onClose();
            navigate(`/roles/${created.data.id}`);
          } catch (failure) {
            setError(applyServerErrors(form, failure, ['name', 'description', 'app_access', 'admin_access']));
          }
        }}
      >
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="name" label={translate('roles.fields.name')} rules={[{ required: true, message: translate('roles.rules.required') }]}>
          <Input autoFocus data-testid="role-name" />
        </Form.Item>
        <Form.Item name="description" label={translate('roles.fields.description')}>
          <Input />
        </Form.Item>
        <Form.Item name="app_access" label={translate('roles.fields.appAccess')} valuePropName="checked" extra={translate('roles.fields.appAccessHelp')}>
          <Switch />
        </Form.Item>
        {isAdmin ? (
          <Form.Item name="admin_access" label={translate('roles.fields.adminAccess')} valuePropName="checked" extra={translate('roles.fields.adminAccessHelp')}>
            <Switch />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

/** Roles: every role with its access and number of users, the public role, and creation. */
export default function RolesPage() {
  const { translate } = useTranslation();
  const roleText = useRoleText();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const { data: canCreate } = useCan({ resource: 'roles', action: 'create' });
  const { data: canEditPermissions } = useCan({ resource: 'permissions', action: 'create' });
  const { result, query } = useList<RoleRecord>({ resource: 'roles', pagination: { mode: 'off' }, sorters: [{ field: 'name', order: 'asc' }], meta: { fields: ROLE_LIST_FIELDS } });
  const publicRole: Row = { id: PUBLIC_ROLE_ID, name: translate('roles.public.name'), public: true };
  const rows: Row[] = [...(result.data ?? []), ...(canEditPermissions?.can ? [publicRole] : [])];

  return (
    <>
      <PageHeader
        title={translate('roles.title')}
        subtitle={translate('roles.subtitle')}
        testId="roles-title"
        actions={
          canCreate?.can ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="role-create">
              {translate('roles.create.title')}
            </Button>
          ) : null
        }
      />
      <Card size="small">
        <Table<Row>
          scroll={{ x: 'max-content' }}
          rowKey="id"
          loading={query.isLoading}
          dataSource={rows}
          pagination={false}
          onRow={(row) => ({ onClick: () => navigate(`/roles/${row.id}`), style: { cursor: 'pointer' }, 'data-testid': `role-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: translate('roles.fields.name'),
              key: 'name',
              render: (_, row) => (
                <Space style={{ whiteSpace: 'nowrap' }}>
                  {'public' in row ? <GlobalOutlined /> : <TeamOutlined />}
                  <Typography.Text strong>{'public' in row ? row.name : roleText.name(row.name)}</Typography.Text>
                </Space>
              ),
            },
            { title: translate('roles.fields.description'), key: 'description', render: (_, row) => <Typography.Text type="secondary">{'public' in row ? translate('roles.public.description') : roleText.description(row.description)}</Typography.Text> },
            {
              title: translate('roles.fields.access'),
              key: 'access',
              width: 240,
              render: (_, row) =>
                'public' in row ? null : (
                  <Space size={4}>
                    {row.admin_access ? <Tag color="gold">{translate('roles.fields.adminAccess')}</Tag> : null}
                    {row.app_access ? <Tag color="blue">{translate('roles.fields.appAccess')}</Tag> : null}
                  </Space>
                ),
            },
            { title: translate('roles.fields.users'), key: 'users', width: 100, align: 'right', render: (_, row) => ('public' in row ? '' : (row.users_count ?? 0)) },
          ]}
        />
      </Card>
      <CreateRoleModal open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
