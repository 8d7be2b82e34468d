import { PushpinOutlined } from '@ant-design/icons';
import { useGetIdentity, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Form, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiData, apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { toPresetFields, type ListView } from './list-preset.ts';

type Scope = 'role' | 'global';

/**
 * Administrators only: saves the list's current view as the default of a role or of everyone (a preset
 * with no user and no bookmark, Directus's shape), replacing the one there was. Users without a view of
 * their own start from it: their own first, then their role's, then everyone's.
 */
export function DefaultPresetButton({ collection, current }: { collection: string; current: ListView }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { data: identity } = useGetIdentity<Identity>();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [roles, setRoles] = useState<Array<{ id: string; name: string }>>([]);
  const [form] = Form.useForm<{ scope: Scope; role?: string }>();
  const scope = Form.useWatch('scope', form);
  const admin = Boolean(identity?.role?.admin_access);

  useEffect(() => {
    if (!open) return;
    void apiData<Array<{ id: string; name: string }>>('/roles', { query: { fields: 'id,name', sort: 'name', limit: -1 } }).then((rows) => setRoles(rows ?? []), () => setRoles([]));
  }, [open]);
  if (!admin) return null;

  const save = async () => {
    const { scope: chosen, role } = await form.validateFields();
    setError(null);
    const owner = chosen === 'role' ? role! : null;
    try {
      const filter = { collection: { _eq: collection }, bookmark: { _null: true }, user: { _null: true }, role: owner === null ? { _null: true } : { _eq: owner } };
      const [existing] = (await apiData<Array<{ id: number }>>('/presets', { query: { fields: 'id', filter, limit: 1 } })) ?? [];
      const body = { ...toPresetFields(current), collection, user: null, role: owner, bookmark: null };
      if (existing) await apiRequest(`/presets/${existing.id}`, { method: 'PATCH', body, query: { fields: 'id' } });
      else await apiRequest('/presets', { method: 'POST', body, query: { fields: 'id' } });
      setOpen(false);
      message.success(translate('content.presets.saved'));
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    }
  };

  return (
    <>
      <Button icon={<PushpinOutlined />} onClick={() => setOpen(true)} data-testid="default-preset">
        {translate('content.presets.saveDefault')}
      </Button>
      <Modal open={open} title={translate('content.presets.saveDefault')} onCancel={() => setOpen(false)} onOk={save} okButtonProps={{ 'data-testid': 'default-preset-save' } as never} destroyOnHidden>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" requiredMark={false} initialValues={{ scope: 'role' }}>
          <Form.Item name="scope" label={translate('content.presets.for')} extra={translate('content.presets.help')}>
            <Radio.Group
              options={[
                { value: 'role', label: translate('content.presets.forRole') },
                { value: 'global', label: translate('content.presets.forEveryone') },
              ]}
              data-testid="default-preset-scope"
            />
          </Form.Item>
          {scope !== 'global' && (
            <Form.Item name="role" label={translate('content.presets.role')} rules={[{ required: true, message: translate('content.presets.roleRequired') }]}>
              <Select options={roles.map((role) => ({ value: role.id, label: role.name }))} data-testid="default-preset-role" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
