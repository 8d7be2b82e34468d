import { useTranslate } from '@refinedev/core';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { apiData, type ApiHttpError } from '../../providers/http-client.ts';
import { createShare, inviteToShare, type ShareRecord } from './share-api.ts';

interface ShareFormValues {
  name?: string;
  role?: string;
  password?: string;
  date_start?: Dayjs | null;
  date_end?: Dayjs | null;
  max_uses?: number | null;
}

/** Roles a share may read as: every role without admin access (SPEC §5); administrators choose one. */
function useShareRoles(enabled: boolean) {
  const [roles, setRoles] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    if (!enabled) return;
    void apiData<Array<{ id: string; name: string }>>('/roles', { query: { fields: ['id', 'name'], filter: { admin_access: { _eq: false } }, sort: 'name', limit: -1 } })
      .then((rows) => setRoles((rows ?? []).map((role) => ({ value: role.id, label: role.name }))), () => setRoles([]));
  }, [enabled]);
  return roles;
}

/**
 * The new-share form: a name, a password, when it starts and ends, how many times it may be opened
 * (each blank means none), and for administrators the role it reads as (others share under their own).
 */
export function NewShareForm({ collection, item, chooseRole, onCreated }: { collection: string; item: string; chooseRole: boolean; onCreated(share: ShareRecord): void }) {
  const translate = useTranslate();
  const [form] = Form.useForm<ShareFormValues>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const roles = useShareRoles(chooseRole);
  const submit = async (values: ShareFormValues) => {
    setBusy(true);
    setError(null);
    try {
      const created = await createShare(collection, item, {
        name: values.name?.trim() || null,
        ...(chooseRole ? { role: values.role ?? null } : {}),
        password: values.password || null,
        date_start: values.date_start ? values.date_start.toISOString() : null,
        date_end: values.date_end ? values.date_end.toISOString() : null,
        max_uses: values.max_uses ?? null,
      });
      form.resetFields();
      onCreated(created);
    } catch (failure) {
      const problem = failure as ApiHttpError;
      const named = Object.entries(problem.errors ?? {}).filter(([name]) => ['name', 'role', 'password', 'date_start', 'date_end', 'max_uses'].includes(name));
      if (named.length > 0) form.setFields(named.map(([name, errors]) => ({ name: name as keyof ShareFormValues, errors: Array.isArray(errors) ? errors : [String(errors)] })));
      else setError(problem.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={submit}
      // Enter confirms a typed date in its picker; it must not also submit the share half filled in.
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.target as HTMLElement).closest('.ant-picker')) event.preventDefault();
      }}
      data-testid="share-form"
    >
      <Form.Item name="name" label={translate('content.shares.name')}>
        <Input placeholder={translate('content.shares.namePlaceholder')} data-testid="share-name" />
      </Form.Item>
      {chooseRole && (
        <Form.Item name="role" label={translate('content.shares.role')} extra={translate('content.shares.roleHelp')} rules={[{ required: true, message: translate('content.shares.roleRequired') }]}>
          <Select options={roles} data-testid="share-role" />
        </Form.Item>
      )}
      <Form.Item name="password" label={translate('content.shares.password')} extra={translate('content.shares.passwordHelp')}>
        <Input.Password autoComplete="new-password" data-testid="share-password" />
      </Form.Item>
      <Form.Item name="date_start" label={translate('content.shares.dateStart')}>
        <DatePicker showTime style={{ width: '100%' }} data-testid="share-date-start" />
      </Form.Item>
      <Form.Item
        name="date_end"
        label={translate('content.shares.dateEnd')}
        dependencies={['date_start']}
        rules={[({ getFieldValue }) => ({ validator: (_, end: Dayjs | null) => (!end || !getFieldValue('date_start') || end.isAfter(getFieldValue('date_start')) ? Promise.resolve() : Promise.reject(new Error(translate('content.shares.endBeforeStart')))) })]}
      >
        <DatePicker showTime style={{ width: '100%' }} data-testid="share-date-end" />
      </Form.Item>
      <Form.Item name="max_uses" label={translate('content.shares.maxUses')} extra={translate('content.shares.maxUsesHelp')}>
        <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="share-max-uses" />
      </Form.Item>
      {error && <Typography.Text type="danger" style={{ display: 'block', marginBottom: 8 }}>{error}</Typography.Text>}
      <Button type="primary" htmlType="submit" loading={busy} data-testid="share-create">
        {translate('content.shares.create')}
      </Button>
    </Form>
  );
}

/** Asks for e-mail addresses and sends them the share's link (POST /shares/invite). */
export function InviteModal({ share, onClose, onSent }: { share: ShareRecord | null; onClose(): void; onSent(count: number): void }) {
  const translate = useTranslate();
  const [emails, setEmails] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!share) return;
    if (emails.length === 0) return setError(translate('content.shares.emailsRequired'));
    setBusy(true);
    try {
      await inviteToShare(share.id, emails);
      setEmails([]);
      setError(null);
      onSent(emails.length);
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={share !== null} title={translate('content.shares.inviteTitle')} onCancel={onClose} onOk={send} okText={translate('content.shares.send')} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{translate('content.shares.inviteHelp')}</Typography.Paragraph>
      <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ' ', ';']} value={emails} onChange={setEmails} style={{ width: '100%' }} placeholder={translate('content.shares.emailsPlaceholder')} status={error ? 'error' : undefined} data-testid="share-invite-emails" />
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Modal>
  );
}
