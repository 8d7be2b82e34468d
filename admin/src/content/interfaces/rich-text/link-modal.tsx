import { useTranslate } from '@refinedev/core';
import { Checkbox, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { isSafeHref } from './safe-href.ts';

/** Asks a link's address (empty removes the link) and whether it opens in a new tab. */
export function LinkModal({ open, href, onSave, onClose }: { open: boolean; href?: string; onSave: (href: string, newTab: boolean) => void; onClose: () => void }) {
  const translate = useTranslate();
  const [address, setAddress] = useState('');
  const [newTab, setNewTab] = useState(false);
  const [error, setError] = useState(false);
  useEffect(() => {
    if (!open) return;
    setAddress(href ?? '');
    setNewTab(false);
    setError(false);
  }, [open, href]);
  const save = () => {
    const trimmed = address.trim();
    if (trimmed && !isSafeHref(trimmed)) return setError(true);
    onSave(trimmed, newTab);
  };
  return (
    <Modal open={open} title={translate('content.richText.customLink')} onOk={save} onCancel={onClose} okText={translate('buttons.save')} cancelText={translate('buttons.cancel')} destroyOnHidden>
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={translate('content.richText.linkUrl')} validateStatus={error ? 'error' : undefined} help={error ? translate('content.richText.unsafeLink') : undefined}>
          <Input autoFocus value={address} placeholder="https://" onChange={(event) => setAddress(event.target.value)} onPressEnter={save} data-testid="rich-text-link-url" />
        </Form.Item>
        <Checkbox checked={newTab} onChange={(event) => setNewTab(event.target.checked)}>
          {translate('content.richText.newTab')}
        </Checkbox>
      </Form>
    </Modal>
  );
}
