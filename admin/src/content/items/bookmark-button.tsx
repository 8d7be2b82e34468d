import { BookOutlined } from '@ant-design/icons';
import { useGetIdentity, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiData, type ApiHttpError } from '../../providers/http-client.ts';
import { announceBookmarksChanged } from './bookmarks.ts';
import { toPresetFields, type ListView } from './list-preset.ts';

type Scope = 'user' | 'role' | 'global';

/** Saves the list's current view as a named bookmark: for oneself, or (administrators) for a role or everyone. */
export function BookmarkButton({ collection, current }: { collection: string; current: ListView }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { data: identity } = useGetIdentity<Identity>();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string; scope: Scope }>();
  const admin = Boolean(identity?.role?.admin_access);

  const save = async () => {
    const { name, scope } = await form.validateFields();
    setError(null);
    try {
      const owner = scope === 'user' ? { user: identity?.id ?? null, role: null } : scope === 'role' ? { user: null, role: identity?.role?.id ?? null } : { user: null, role: null };
      const created = await apiData<{ id: number }>('/presets', { method: 'POST', body: { ...toPresetFields(current), ...owner, collection, bookmark: name.trim() }, query: { fields: 'id' } });
      setOpen(false);
      form.resetFields();
      message.success(translate('content.bookmarks.saved'));
      announceBookmarksChanged();
      navigate(`/content/${encodeURIComponent(collection)}?bookmark=${created.id}`);
    } catch (failure) {
      setError((failure as ApiHttpError).message);
    }
  };

  return (
    <>
      <Button icon={<BookOutlined />} onClick={() => setOpen(true)} data-testid="bookmark-create">
        {translate('content.bookmarks.create')}
      </Button>
      <Modal open={open} title={translate('content.bookmarks.create')} onCancel={() => setOpen(false)} onOk={save} okButtonProps={{ 'data-testid': 'bookmark-save' } as never} destroyOnHidden>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" requiredMark={false} initialValues={{ scope: 'user' }}>
          <Form.Item name="name" label={translate('content.bookmarks.name')} rules={[{ required: true, whitespace: true, max: 255, message: translate('content.bookmarks.nameRequired') }]}>
            <Input data-testid="bookmark-name" />
          </Form.Item>
          {admin && (
            <Form.Item name="scope" label={translate('content.bookmarks.for')}>
              <Radio.Group
                options={[
                  { value: 'user', label: translate('content.bookmarks.forMe') },
                  { value: 'role', label: translate('content.bookmarks.forRole') },
                  { value: 'global', label: translate('content.bookmarks.forEveryone') },
                ]}
                data-testid="bookmark-scope"
              />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
