import { useCreate, useSelect, useTranslation } from '@refinedev/core';
import { Alert, Col, Form, Input, Modal, Row, Select, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useRoleText } from '../../app/system-labels.ts';
import { applyServerErrors } from '../shared/server-errors.ts';

interface NewUser {
  first_name?: string;
  last_name?: string;
  email: string;
  password: string;
  role?: string;
}

const FIELDS = ['first_name', 'last_name', 'email', 'password', 'role'];

/** Creates an active user who signs in with an e-mail and a password (POST /users); the password policy is the server's. */
export function CreateUserModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(id: string): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<NewUser>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCreate();
  const roleText = useRoleText();
  const { options: roles } = useSelect<{ id: string; name: string }>({ resource: 'roles', optionLabel: (role) => roleText.name(role.name), optionValue: 'id', pagination: { mode: 'off' }, meta: { fields: ['id', 'name'] } });
  const required = { required: true, message: translate('users.rules.required') };

  return (
    <Modal open={open} title={translate('users.create.title')} okText={translate('users.create.submit')} cancelText={translate('shared.actions.cancel')} confirmLoading={mutation.isPending} onCancel={onClose} onOk={() => form.submit()} okButtonProps={{ 'data-testid': 'user-create-submit' } as ButtonProps} destroyOnHidden>
      <Form<NewUser>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={async (values) => {
          setError(null);
          const blank = (value: string | undefined) => (value?.trim() ? value.trim() : null);
          try {
            const created = await mutateAsync({
              resource: 'users',
              values: { first_name: blank(values.first_name), last_name: blank(values.last_name), email: values.email.trim(), password: values.password, role: values.role ?? null, status: 'active' },
              meta: { fields: ['id'] },
              successNotification: () => ({ type: 'success', message: translate('users.create.done') }),
              errorNotification: false,
            });
            onCreated(String((created.data as { id: string }).id));
          } catch (failure) {
            setError(applyServerErrors(form, failure, FIELDS));
          }
        }}
      >
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="first_name" label={translate('users.fields.firstName')}>
              <Input data-testid="user-create-first-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="last_name" label={translate('users.fields.lastName')}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="email" label={translate('users.fields.email')} rules={[required, { type: 'email', message: translate('users.rules.email') }]}>
          <Input autoComplete="off" data-testid="user-create-email" />
        </Form.Item>
        <Form.Item name="password" label={translate('users.fields.password')} extra={translate('users.create.passwordHelp')} rules={[required]}>
          <Input.Password autoComplete="new-password" data-testid="user-create-password" />
        </Form.Item>
        <Form.Item name="role" label={translate('users.fields.role')}>
          <Select allowClear options={roles} data-testid="user-create-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
