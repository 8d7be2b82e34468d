import { useTranslate } from '@refinedev/core';
import { Alert, Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiRequest, type ApiHttpError } from '../providers/http-client.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * Choosing a password from a mailed link: `/admin/reset-password?token=…` (password reset) and
 * `/admin/accept-invite?token=…` (invitation). Both post the token and the new password.
 */
function SetPasswordPage({ kind }: { kind: 'reset' | 'invite' }) {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();

  const title = kind === 'reset' ? translate('auth.reset.title') : translate('auth.invite.title');

  const onFinish = async ({ password }: { password: string }) => {
    setBusy(true);
    setError(null);
    try {
      await apiRequest(kind === 'reset' ? '/auth/password/reset' : '/users/invite/accept', { method: 'POST', body: { token, password } });
      setDone(true);
    } catch (failure) {
      const httpError = failure as ApiHttpError;
      if (httpError.errors?.password) form.setFields([{ name: 'password', errors: [httpError.message] }]);
      else setError(httpError.message);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthCard title={title}>
        <Result status="success" style={{ padding: 0 }} subTitle={kind === 'reset' ? translate('auth.reset.done') : translate('auth.invite.done')} extra={<Link to="/login">{translate('auth.signIn.submit')}</Link>} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} subtitle={kind === 'invite' ? translate('auth.invite.body') : undefined}>
      {!token && <Alert type="warning" showIcon message={translate('auth.reset.missingToken')} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} disabled={!token}>
        <Form.Item name="password" label={translate('auth.reset.password')} rules={[{ required: true, message: translate('auth.signIn.passwordRequired') }]}>
          <Input.Password autoComplete="new-password" size="large" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={translate('auth.reset.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: translate('auth.signIn.passwordRequired') },
            ({ getFieldValue }) => ({ validator: (_, value) => (value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(translate('auth.reset.mismatch')))) }),
          ]}
        >
          <Input.Password autoComplete="new-password" size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={busy}>
          {kind === 'reset' ? translate('auth.reset.submit') : translate('auth.invite.submit')}
        </Button>
      </Form>
      <div style={{ textAlign: 'center', marginTop: 12 }}>
        <Link to="/login">{translate('auth.forgot.back')}</Link>
      </div>
    </AuthCard>
  );
}

/** `/admin/reset-password?token=…`. */
export function ResetPasswordPage() {
  return <SetPasswordPage kind="reset" />;
}

/** `/admin/accept-invite?token=…`. */
export function AcceptInvitePage() {
  return <SetPasswordPage kind="invite" />;
}
