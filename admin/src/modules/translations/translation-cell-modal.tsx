import { useTranslate } from '@refinedev/core';
import { Alert, AutoComplete, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';

/** What the modal edits: an existing key in one language, or a new key. */
export interface CellTarget {
  key: string | null;
  language: string;
  value: string;
}

/** Edits one translation (key, language, value); an emptied value removes it. */
export function TranslationCellModal({ target, languages, onSave, onClose }: { target: CellTarget | null; languages: string[]; onSave(values: { key: string; language: string; value: string }): Promise<void>; onClose(): void }) {
  const translate = useTranslate();
  const [form] = Form.useForm<{ key: string; language: string; value: string }>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const creating = target?.key === null;

  useEffect(() => {
    if (!target) return;
    setError(null);
    form.setFieldsValue({ key: target.key ?? '', language: target.language, value: target.value });
  }, [target, form]);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    setError(null);
    try {
      await onSave(values);
      onClose();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={target !== null} title={translate(creating ? 'translations.create' : 'translations.edit')} onCancel={onClose} onOk={submit} okText={translate('translations.save')} confirmLoading={saving} okButtonProps={{ 'data-testid': 'translation-save' } as never} destroyOnHidden>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="translation-error" />}
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="key" label={translate('translations.key')} extra={translate('translations.keyHelp')} rules={[{ required: true, whitespace: true, message: translate('translations.keyRequired') }]}>
          <Input disabled={!creating} data-testid="translation-key" />
        </Form.Item>
        <Form.Item name="language" label={translate('translations.language')} extra={creating ? translate('translations.languageHelp') : undefined} rules={[{ required: true, message: translate('translations.languageRequired') }]}>
          <AutoComplete disabled={!creating} options={languages.map((language) => ({ value: language }))} filterOption={(input, option) => String(option?.value ?? '').toLowerCase().startsWith(input.toLowerCase())} data-testid="translation-language" />
        </Form.Item>
        <Form.Item name="value" label={translate('translations.value')} extra={creating ? undefined : translate('translations.valueHelp')} rules={creating ? [{ required: true, whitespace: true, message: translate('translations.valueRequired') }] : []}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} data-testid="translation-value" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
