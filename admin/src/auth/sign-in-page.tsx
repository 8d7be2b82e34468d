import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useInvalidateAuthStore, useTranslate } from '@refinedev/core';
import { Alert, Button, Divider, Form, Input, Result, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useProject } from '../app/project-settings.tsx';
import { forgetPermissions } from '../providers/access-control-provider.ts';
import { signIn } from '../providers/auth-provider.ts';
import { apiRequest } from '../providers/http-client.ts';
import { AuthCard } from './auth-card.tsx';
import { ProviderIcon } from './provider-icon.tsx';
import { fetchProviders, providerLoginUrl, requestEmailLink, signInWithDirectory, type SignInProvider } from './providers.ts';

type Mode = 'password' | 'email-link' | 'forgot' | 'link-sent' | 'reset-sent';

interface LoginError {
  message: string;
  code?: string;
  field?: string;
}

/** Sign-in: credentials (with a one-time password when TFA is on), an e-mail link, the configured providers (OpenID, OAuth 2.0, SAML buttons; LDAP's own form). */
export default function SignInPage() {
  const translate = useTranslate();
  const { project } = useProject();
  const invalidateAuth = useInvalidateAuthStore();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const [mode, setMode] = useState<Mode>('password');
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [needsOtp, setNeedsOtp] = useState(false);
  const [busy, setBusy] = useState(false);
  const projectName = project.project_name || 'Tessera';

  useEffect(() => {
    void fetchProviders().then(setProviders);
  }, []);
  const [directory, setDirectory] = useState<SignInProvider | null>(null);
  // Providers the browser is sent to (OpenID, OAuth 2.0, SAML); a directory (LDAP) takes a password here.
  const redirecting = providers.filter((provider) => provider.type === 'oidc' || provider.type === 'oauth' || provider.type === 'saml');
  const directories = providers.filter((provider) => provider.driver === 'ldap');
  const emailLinks = providers.some((provider) => provider.id === 'email');

  const onPassword = async (values: { email: string; password: string; otp?: string }) => {
    setError(null);
    setPending(true);
    try {
      const failure: LoginError | null = await signIn(values);
      if (!failure) {
        forgetPermissions();
        await invalidateAuth();
        navigate('/', { replace: true });
        return;
      }
      if (failure.code === 'INVALID_OTP' && !needsOtp) setNeedsOtp(true);
      else setError(failure.code === 'INVALID_CREDENTIALS' ? translate('auth.signIn.failed') : failure.message);
    } finally {
      setPending(false);
    }
  };

  const onDirectory = async (values: { identifier: string; password: string; otp?: string }) => {
    if (!directory) return;
    setError(null);
    setPending(true);
    try {
      const failure = await signInWithDirectory(directory.id, values);
      if (!failure) {
        forgetPermissions();
        await invalidateAuth();
        navigate('/', { replace: true });
        return;
      }
      if (failure.code === 'INVALID_OTP' && !needsOtp) setNeedsOtp(true);
      else setError(failure.code === 'INVALID_CREDENTIALS' ? translate('auth.signIn.failed') : failure.message);
    } finally {
      setPending(false);
    }
  };

  const onEmailLink = async ({ email }: { email: string }) => {
    setBusy(true);
    setError(null);
    try {
      if (await requestEmailLink(email)) setMode('link-sent');
      else setError(translate('auth.signIn.emailLinkFailed'));
    } catch {
      setError(translate('auth.signIn.emailLinkFailed'));
    } finally {
      setBusy(false);
    }
  };

  const onForgot = async ({ email }: { email: string }) => {
    setBusy(true);
    setError(null);
    try {
      await apiRequest('/auth/password/request', { method: 'POST', body: { email } });
      setMode('reset-sent');
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const emailField = (
    <Form.Item
      name="email"
      label={translate('auth.signIn.email')}
      rules={[
        { required: true, message: translate('auth.signIn.emailRequired') },
        { type: 'email', message: translate('auth.signIn.emailInvalid') },
      ]}
    >
      <Input prefix={<MailOutlined />} autoComplete="email" autoFocus size="large" />
    </Form.Item>
  );

  if (mode === 'link-sent' || mode === 'reset-sent') {
    return (
      <AuthCard title={mode === 'link-sent' ? translate('auth.signIn.emailLinkSent') : translate('auth.forgot.title')}>
        <Result status="success" style={{ padding: 0 }} subTitle={mode === 'link-sent' ? translate('auth.signIn.emailLinkSentBody') : translate('auth.forgot.sent')} />
        <Button type="link" block onClick={() => setMode('password')}>
          {translate('auth.forgot.back')}
        </Button>
      </AuthCard>
    );
  }

  if (mode === 'forgot' || mode === 'email-link') {
    const forgot = mode === 'forgot';
    return (
      <AuthCard title={forgot ? translate('auth.forgot.title') : translate('auth.signIn.emailLink')} subtitle={forgot ? translate('auth.forgot.body') : undefined}>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Form layout="vertical" requiredMark={false} onFinish={forgot ? onForgot : onEmailLink}>
          {emailField}
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            {forgot ? translate('auth.forgot.submit') : translate('auth.signIn.emailLinkSend')}
          </Button>
        </Form>
        <Button type="link" block style={{ marginTop: 8 }} onClick={() => { setError(null); setMode('password'); }}>
          {translate('auth.forgot.back')}
        </Button>
      </AuthCard>
    );
  }

  if (directory) {
    return (
      <AuthCard title={translate('auth.signIn.withProvider', { provider: directory.name })}>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="sign-in-error" />}
        <Form layout="vertical" requiredMark={false} onFinish={onDirectory} name="directory-sign-in">
          <Form.Item name="identifier" label={translate('auth.signIn.identifier')} rules={[{ required: true, message: translate('auth.signIn.identifierRequired') }]}>
            <Input prefix={<ProviderIcon name={directory.icon} />} autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item name="password" label={translate('auth.signIn.password')} rules={[{ required: true, message: translate('auth.signIn.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
          </Form.Item>
          {needsOtp && (
            <Form.Item name="otp" label={translate('auth.signIn.otp')} extra={translate('auth.signIn.otpHelp')} rules={[{ required: true, message: translate('auth.signIn.otpHelp') }]}>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} size="large" autoFocus />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
            {translate('auth.signIn.submit')}
          </Button>
        </Form>
        <Button type="link" block style={{ marginTop: 8 }} onClick={() => { setError(null); setNeedsOtp(false); setDirectory(null); }}>
          {translate('auth.forgot.back')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={translate('auth.signIn.title')} subtitle={translate('auth.signIn.subtitle', { project: projectName })}>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="sign-in-error" />}
      <Form layout="vertical" requiredMark={false} onFinish={onPassword} name="sign-in">
        {emailField}
        <Form.Item name="password" label={translate('auth.signIn.password')} rules={[{ required: true, message: translate('auth.signIn.passwordRequired') }]} style={{ marginBottom: 8 }}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
        </Form.Item>
        <div style={{ textAlign: 'right', marginBottom: 16 }}>
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => { setError(null); setMode('forgot'); }}>
            {translate('auth.signIn.forgot')}
          </Button>
        </div>
        {needsOtp && (
          <Form.Item name="otp" label={translate('auth.signIn.otp')} extra={translate('auth.signIn.otpHelp')} rules={[{ required: true, message: translate('auth.signIn.otpHelp') }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} size="large" autoFocus />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
          {translate('auth.signIn.submit')}
        </Button>
      </Form>
      {(redirecting.length > 0 || directories.length > 0 || emailLinks) && <Divider plain>{translate('auth.signIn.or')}</Divider>}
      <Space direction="vertical" style={{ width: '100%' }}>
        {redirecting.map((provider) => (
          <Button key={provider.id} block size="large" icon={<ProviderIcon name={provider.icon} />} href={providerLoginUrl(provider.id)} data-testid={`provider-${provider.id}`}>
            {translate('auth.signIn.withProvider', { provider: provider.name })}
          </Button>
        ))}
        {directories.map((provider) => (
          <Button key={provider.id} block size="large" icon={<ProviderIcon name={provider.icon} />} onClick={() => { setError(null); setNeedsOtp(false); setDirectory(provider); }} data-testid={`provider-${provider.id}`}>
            {translate('auth.signIn.withProvider', { provider: provider.name })}
          </Button>
        ))}
        {emailLinks && (
          <Button block size="large" icon={<MailOutlined />} onClick={() => { setError(null); setMode('email-link'); }}>
            {translate('auth.signIn.emailLink')}
          </Button>
        )}
      </Space>
    </AuthCard>
  );
}
