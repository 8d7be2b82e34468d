import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { useCan, useDelete, useOne, useTranslation } from '@refinedev/core';
import { Alert, Button, Card, Popconfirm, Space } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { useRoleText } from '../../app/system-labels.ts';
import { PageHeader } from '../shared/page-header.tsx';
import { PermissionMatrix } from './permission-matrix-table.tsx';
import { RoleDetailsForm } from './role-details-form.tsx';
import { PUBLIC_ROLE_ID, type RoleRecord } from './role-options.ts';

/** The public role: requests without a user, permissions only. */
function PublicRoleScreen() {
  const { translate } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={<Space><Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/roles')} aria-label={translate('shared.actions.back')} />{translate('roles.public.name')}</Space>} subtitle={translate('roles.public.description')} />
      <Card size="small" title={translate('roles.matrix.title')}>
        <PermissionMatrix role={null} appAccess={false} />
      </Card>
    </>
  );
}

/** A role: its details, and unless it has admin access, its permission matrix. */
function RoleScreen({ id }: { id: string }) {
  const { translate } = useTranslation();
  const roleText = useRoleText();
  const navigate = useNavigate();
  const { result: role, query } = useOne<RoleRecord>({ resource: 'roles', id, meta: { fields: ['id', 'name', 'app_access', 'admin_access'] } });
  const { data: canDelete } = useCan({ resource: 'roles', action: 'delete', params: { id } });
  const { data: canPermissions } = useCan({ resource: 'permissions', action: 'create' });
  const { mutateAsync: remove } = useDelete();

  return (
    <>
      <PageHeader
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/roles')} aria-label={translate('shared.actions.back')} />
            <span data-testid="role-title">{roleText.name(role?.name)}</span>
          </Space>
        }
        actions={
          canDelete?.can ? (
            <Popconfirm
              title={translate('roles.deleteConfirm')}
              okText={translate('shared.actions.delete')}
              cancelText={translate('shared.actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await remove({ resource: 'roles', id, successNotification: false });
                navigate('/roles');
              }}
            >
              <Button danger icon={<DeleteOutlined />}>
                {translate('roles.delete')}
              </Button>
            </Popconfirm>
          ) : null
        }
      />
      <Space direction="vertical" size={24} style={{ width: '100%' }}>
        <Card size="small" title={translate('roles.details')}>
          <RoleDetailsForm id={id} onSaved={() => void query.refetch()} />
        </Card>
        <Card size="small" title={translate('roles.matrix.title')}>
          {role?.admin_access ? (
            <Alert type="info" showIcon message={translate('roles.matrix.adminHasAll')} />
          ) : canPermissions?.can ? (
            <PermissionMatrix role={id} appAccess={Boolean(role?.app_access)} />
          ) : (
            <Alert type="info" showIcon message={translate('roles.matrix.readOnly')} />
          )}
        </Card>
      </Space>
    </>
  );
}

/** The route element of /roles/:id (`public` for the public role). */
export default function RolePage() {
  const { id = '' } = useParams();
  return id === PUBLIC_ROLE_ID ? <PublicRoleScreen /> : <RoleScreen id={id} />;
}
