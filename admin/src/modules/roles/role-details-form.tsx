import { useForm } from '@refinedev/antd';
import { useCan, useTranslation } from '@refinedev/core';
import { Button, Col, Form, Input, Row, Select, Switch } from 'antd';
import { useIsAdmin } from '../shared/use-admin.ts';
import { IP_ENTRY, type RoleRecord } from './role-options.ts';

/** A role's name, description, access flags, allowed IP addresses and TFA enforcement. */
export function RoleDetailsForm({ id, onSaved }: { id: string; onSaved(role: RoleRecord): void }) {
  const { translate } = useTranslation();
  const { isAdmin } = useIsAdmin();
  const { data: canEdit } = useCan({ resource: 'roles', action: 'edit', params: { id } });
  const { formProps, saveButtonProps } = useForm<RoleRecord>({
    resource: 'roles',
    action: 'edit',
    id,
    redirect: false,
    meta: { fields: ['id', 'name', 'icon', 'description', 'app_access', 'admin_access', 'ip_access', 'enforce_tfa'] },
    successNotification: () => ({ type: 'success', message: translate('shared.saved') }),
    onMutationSuccess: (response) => onSaved(response.data),
  });
  const readOnly = !canEdit?.can;

  return (
    <Form {...formProps} layout="vertical" disabled={readOnly} data-testid="role-form">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={translate('roles.fields.name')} rules={[{ required: true, message: translate('roles.rules.required') }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="icon" label={translate('roles.fields.icon')}>
            <Input placeholder="supervised_user_circle" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={translate('roles.fields.description')}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={12} md={8}>
          <Form.Item name="app_access" label={translate('roles.fields.appAccess')} valuePropName="checked" tooltip={translate('roles.fields.appAccessHelp')}>
            <Switch data-testid="role-app-access" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="admin_access" label={translate('roles.fields.adminAccess')} valuePropName="checked" tooltip={translate('roles.fields.adminAccessHelp')}>
            {/* Only administrators make administrators (docs/permissions.md). */}
            <Switch disabled={!isAdmin || readOnly} data-testid="role-admin-access" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="enforce_tfa" label={translate('roles.fields.enforceTfa')} valuePropName="checked" tooltip={translate('roles.fields.enforceTfaHelp')}>
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="ip_access"
        label={translate('roles.fields.ipAccess')}
        extra={translate('roles.fields.ipAccessHelp')}
        getValueProps={(value: string[] | string | null) => ({ value: typeof value === 'string' ? value.split(',').filter(Boolean) : (value ?? []) })}
        normalize={(value: string[]) => (value && value.length > 0 ? value.map((entry) => entry.trim()) : null)}
        rules={[
          {
            validator: async (_, value: string[] | null) => {
              const bad = (value ?? []).find((entry) => !IP_ENTRY.test(entry));
              if (bad) throw new Error(`${translate('roles.rules.ip')}: ${bad}`);
            },
          },
        ]}
      >
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} placeholder="203.0.113.7, 10.0.0.0/8" />
      </Form.Item>
      {readOnly ? null : (
        <Button type="primary" {...saveButtonProps} data-testid="role-save">
          {translate('shared.actions.save')}
        </Button>
      )}
    </Form>
  );
}
