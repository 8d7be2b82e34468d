import { BranchesOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Divider, Form, Input, Modal, Select } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { createVersion, listVersions, type VersionRecord } from './versions-api.ts';

/** Main or one of the item's versions; a new version is made from here (key and name). */
export function VersionSwitcher({ collection, item, value, onChange }: { collection: string; item: string; value: VersionRecord | null; onChange(version: VersionRecord | null): void }) {
  const translate = useTranslate();
  const [versions, setVersions] = useState<VersionRecord[]>([]);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ key: string; name?: string }>();

  const load = useCallback(() => listVersions(collection, item).then(setVersions, () => setVersions([])), [collection, item]);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async () => {
    const values = await form.validateFields();
    setError(null);
    try {
      const version = await createVersion(collection, item, values.key.trim(), values.name?.trim() || null);
      await load();
      setCreating(false);
      form.resetFields();
      onChange(version);
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    }
  };

  return (
    <>
      <Select
        value={value?.id ?? 'main'}
        onChange={(id) => onChange(id === 'main' ? null : (versions.find((version) => version.id === id) ?? null))}
        style={{ minWidth: 180 }}
        suffixIcon={<BranchesOutlined />}
        options={[{ value: 'main', label: translate('content.versions.main') }, ...versions.map((version) => ({ value: version.id, label: version.name || version.key }))]}
        popupRender={(menu) => (
          <>
            {menu}
            <Divider style={{ margin: '4px 0' }} />
            <Button type="text" block icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="version-create">
              {translate('content.versions.create')}
            </Button>
          </>
        )}
        data-testid="version-switcher"
      />
      <Modal open={creating} title={translate('content.versions.create')} onCancel={() => setCreating(false)} onOk={create} okButtonProps={{ 'data-testid': 'version-create-save' } as never} destroyOnHidden>
        <Form form={form} layout="vertical" requiredMark={false}>
          {error && <div style={{ color: 'var(--ant-color-error)', marginBottom: 12 }} data-testid="version-error">{error}</div>}
          <Form.Item name="key" label={translate('content.versions.key')} extra={translate('content.versions.keyHelp')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,64}$/, message: translate('content.versions.keyHelp') }]}>
            <Input data-testid="version-key" />
          </Form.Item>
          <Form.Item name="name" label={translate('content.versions.name')}>
            <Input data-testid="version-name" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
