import { useCustomMutation, useSelect, useTranslation } from '@refinedev/core';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useRoleText } from '../../app/system-labels.ts';
import { applyServerErrors } from '../shared/server-errors.ts';
import { EMAIL, parseEmailList } from './user-options.ts';

/** Invites people by e-mail into a role (POST /users/invite): they get a link to set their password. */
export function InviteModal({ open, onClose, onInvited }: { open: boolean; onClose(): void; onInvited(count: number): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<{ emails: string; role: string }>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCustomMutation();
  const roleText = useRoleText();
  const { options: roles } = useSelect<{ id: string; name: string }>({ resource: 'roles', optionLabel: (role) => roleText.name(role.name), optionValue: 'id', pagination: { mode: 'off' }, meta: { fields: ['id', 'name'] } });

  return (
    <Modal open={open} title={translate('users.invite.title')} okText={translate('users.invite.send')} cancelText={translate('shared.actions.cancel')} confirmLoading={mutation.isPending} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={async (values) => {
          setError(null);
          const emails = parseEmailList(values.emails);
          try {
            await mutateAsync({
              url: '/users/invite',
              method: 'post',
              // The server's default invitation page is this admin's accept-invite screen.
              values: { email: emails.length === 1 ? emails[0] : emails, role: values.role },
              successNotification: false,
              errorNotification: false,
            });
            onInvited(emails.length);
          } catch (failure) {
            setError(applyServerErrors(form, failure, ['role']) ?? null);
            const fieldErrors = (failure as { errors?: Record<string, string[]> }).errors?.email;
            if (fieldErrors) form.setFields([{ name: 'emails', errors: fieldErrors }]);
          }
        }}
      >
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item
          name="emails"
          label={translate('users.invite.emails')}
          extra={translate('users.invite.emailsHelp')}
          rules={[
            { required: true, message: translate('users.rules.required') },
            {
              validator: async (_, value: string | undefined) => {
                const bad = parseEmailList(value ?? '').find((email) => !EMAIL.test(email));
                if (bad) throw new Error(`${translate('users.rules.email')}: ${bad}`);
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="ana@example.com, bruno@example.com" data-testid="invite-emails" />
        </Form.Item>
        <Form.Item name="role" label={translate('users.fields.role')} rules={[{ required: true, message: translate('users.rules.required') }]}>
          <Select options={roles} data-testid="invite-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
