import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { useForm } from '@refinedev/antd';
import { useCan, useDelete, useSelect, useTranslation } from '@refinedev/core';
import { Button, Card, Col, Form, Input, Popconfirm, Row, Select, Space, Switch } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { LOCALES } from '../../i18n/locales.ts';
import { useRoleText } from '../../app/system-labels.ts';
import { PageHeader } from '../shared/page-header.tsx';
import { SignInMethod } from './sign-in-method.tsx';
import { APPEARANCES, USER_STATUSES, displayName, toUserPayload, type UserRecord } from './user-options.ts';

const EDIT_FIELDS = ['id', 'first_name', 'last_name', 'email', 'title', 'status', 'role', 'language', 'appearance', 'email_notifications', 'last_access', 'provider', 'external_identifier'];

/** One user: how they sign in; name, e-mail, role, status, language, appearance, a new password; deletion. */
export default function UserPage() {
  const { id = '' } = useParams();
  const { translate } = useTranslation();
  const navigate = useNavigate();
  const { data: canEdit } = useCan({ resource: 'users', action: 'edit', params: { id } });
  const { data: canDelete } = useCan({ resource: 'users', action: 'delete', params: { id } });
  const { mutateAsync: remove } = useDelete();
  const roleText = useRoleText();
  const { options: roles } = useSelect<{ id: string; name: string }>({ resource: 'roles', optionLabel: (role) => roleText.name(role.name), optionValue: 'id', pagination: { mode: 'off' }, meta: { fields: ['id', 'name'] } });
  const { formProps, saveButtonProps, query } = useForm<UserRecord>({
    resource: 'users',
    action: 'edit',
    id,
    redirect: false,
    meta: { fields: EDIT_FIELDS },
    successNotification: () => ({ type: 'success', message: translate('shared.saved') }),
  });
  const user = query?.data?.data;
  const readOnly = !canEdit?.can;

  return (
    <>
      <PageHeader
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/users')} aria-label={translate('shared.actions.back')} />
            <span data-testid="user-title">{user ? displayName(user) : ''}</span>
          </Space>
        }
        actions={
          canDelete?.can ? (
            <Popconfirm
              title={translate('users.deleteConfirm')}
              okText={translate('shared.actions.delete')}
              cancelText={translate('shared.actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await remove({ resource: 'users', id, successNotification: false });
                navigate('/users');
              }}
            >
              <Button danger icon={<DeleteOutlined />}>
                {translate('users.delete')}
              </Button>
            </Popconfirm>
          ) : null
        }
      />
      <Card size="small" style={{ maxWidth: 880 }}>
        {user && <SignInMethod provider={user.provider} externalIdentifier={user.external_identifier} />}
        <Form
          {...formProps}
          onFinish={(values) => formProps.onFinish?.(toUserPayload(values as Record<string, unknown>))}
          layout="vertical"
          disabled={readOnly}
          data-testid="user-form"
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="first_name" label={translate('users.fields.firstName')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="last_name" label={translate('users.fields.lastName')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="email" label={translate('users.fields.email')} rules={[{ type: 'email', message: translate('users.rules.email') }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="title" label={translate('users.fields.title')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="role" label={translate('users.fields.role')}>
                <Select allowClear options={roles} data-testid="user-role" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="status" label={translate('users.fields.status')}>
                <Select options={USER_STATUSES.map((status) => ({ value: status, label: translate(`users.status.${status}`) }))} data-testid="user-status" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="language" label={translate('users.fields.language')}>
                <Select allowClear placeholder={translate('users.language.project')} options={LOCALES.map((locale) => ({ value: locale.code, label: locale.label }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="appearance" label={translate('users.fields.appearance')}>
                <Select allowClear placeholder={translate('users.appearance.sync')} options={APPEARANCES.map((value) => ({ value, label: translate(`users.appearance.${value}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="password" label={translate('users.fields.newPassword')} extra={translate('users.fields.newPasswordHelp')}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="email_notifications" label={translate('users.fields.emailNotifications')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
          {readOnly ? null : (
            <Button type="primary" {...saveButtonProps} data-testid="user-save">
              {translate('shared.actions.save')}
            </Button>
          )}
        </Form>
      </Card>
    </>
  );
}
