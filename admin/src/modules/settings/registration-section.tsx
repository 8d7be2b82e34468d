import { useSelect, useTranslation } from '@refinedev/core';
import { Col, Form, Input, Row, Select, Switch } from 'antd';
import { useRoleText } from '../../app/system-labels.ts';

/** Public registration (POST /users/register): on or off, e-mail verification, the role new users get, an e-mail filter. */
export function RegistrationSection() {
  const { translate } = useTranslation();
  const roleText = useRoleText();
  const { options: roles } = useSelect<{ id: string; name: string }>({ resource: 'roles', optionLabel: (role) => roleText.name(role.name), optionValue: 'id', pagination: { mode: 'off' }, meta: { fields: ['id', 'name'] } });
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="public_registration" label={translate('settings.registration.enabled')} extra={translate('settings.registration.enabledHelp')} valuePropName="checked">
            <Switch data-testid="settings-public-registration" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="public_registration_verify_email" label={translate('settings.registration.verifyEmail')} extra={translate('settings.registration.verifyEmailHelp')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="public_registration_role" label={translate('settings.registration.role')} extra={translate('settings.registration.roleHelp')}>
        <Select allowClear options={roles} placeholder={translate('settings.registration.noRole')} style={{ maxWidth: 360 }} />
      </Form.Item>
      <Form.Item name="public_registration_email_filter" label={translate('settings.registration.emailFilter')} extra={translate('settings.registration.emailFilterHelp')}>
        <Input.TextArea rows={3} placeholder={'{ "email": { "_ends_with": "@example.com" } }'} spellCheck={false} />
      </Form.Item>
    </>
  );
}
