import { useTranslate } from '@refinedev/core';
import { Alert, Button, Form, Input, QRCode, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { disableTfa, enableTfa, generateTfaSecret, type TfaSecret } from './tfa-api.ts';

const OTP_RULE = { pattern: /^\d{6}$/, message: '' };

/** The two steps of turning TFA on: the password, then the QR code and a first code from the app. */
export function TfaSetup({ onEnabled }: { onEnabled(): void }) {
  const translate = useTranslate();
  const [secret, setSecret] = useState<TfaSecret | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Steps size="small" current={secret ? 1 : 0} items={[{ title: translate('account.tfa.stepPassword') }, { title: translate('account.tfa.stepScan') }]} />
      {error && <Alert type="error" showIcon message={error} data-testid="tfa-error" />}
      {secret === null ? (
        <Form layout="vertical" onFinish={({ password }: { password: string }) => run(async () => setSecret(await generateTfaSecret(password)))} requiredMark={false}>
          <Form.Item name="password" label={translate('account.tfa.password')} extra={translate('account.tfa.passwordHelp')} rules={[{ required: true, message: translate('account.tfa.passwordHelp') }]}>
            <Input.Password autoComplete="current-password" data-testid="tfa-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="tfa-generate">
            {translate('account.tfa.continue')}
          </Button>
        </Form>
      ) : (
        <Form layout="vertical" onFinish={({ otp }: { otp: string }) => run(async () => { await enableTfa(secret.secret, otp); onEnabled(); })} requiredMark={false}>
          <Typography.Paragraph>{translate('account.tfa.scan')}</Typography.Paragraph>
          <QRCode value={secret.otpauth_url} size={176} bordered={false} data-testid="tfa-qr" />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {translate('account.tfa.manual')} <Typography.Text code copyable data-testid="tfa-secret">{secret.secret}</Typography.Text>
          </Typography.Paragraph>
          <Form.Item name="otp" label={translate('account.tfa.code')} rules={[{ required: true, ...OTP_RULE, message: translate('account.tfa.codeHelp') }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 160 }} data-testid="tfa-otp" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="tfa-enable">
              {translate('account.tfa.enable')}
            </Button>
            <Button onClick={() => setSecret(null)} disabled={busy}>
              {translate('account.tfa.back')}
            </Button>
          </Space>
        </Form>
      )}
    </Space>
  );
}

/** Turning TFA off, with a current code. */
export function TfaDisable({ onDisabled }: { onDisabled(): void }) {
  const translate = useTranslate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async ({ otp }: { otp: string }) => {
    setBusy(true);
    setError(null);
    try {
      await disableTfa(otp);
      onDisabled();
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="tfa-error" />}
      <Form.Item name="otp" label={translate('account.tfa.code')} extra={translate('account.tfa.disableHelp')} rules={[{ required: true, ...OTP_RULE, message: translate('account.tfa.codeHelp') }]}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 160 }} data-testid="tfa-disable-otp" />
      </Form.Item>
      <Button danger htmlType="submit" loading={busy} data-testid="tfa-disable">
        {translate('account.tfa.disable')}
      </Button>
    </Form>
  );
}
