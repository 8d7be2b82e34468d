import { useCreate, useTranslation } from '@refinedev/core';
import { Alert, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useState } from 'react';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { COLLECTION_ICONS, PRIMARY_KEY_KINDS, primaryKeyFields, type PrimaryKeyKind } from './collection-options.ts';
import { COLLECTION_NAME_PATTERN } from './field-types.ts';

interface Values {
  collection: string;
  folder: boolean;
  primaryKey: PrimaryKeyKind;
  singleton: boolean;
  icon?: string;
  note?: string;
  group?: string;
}

/** Creates a collection (a table with its key) or a folder, then opens it. */
export function CreateCollectionModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(name: string): void }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const [form] = Form.useForm<Values>();
  const folder = Form.useWatch('folder', form);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCreate();
  const groups = schema.collections.filter((collection) => !collection.collection.startsWith('tessera_'));

  const submit = async (values: Values) => {
    setError(null);
    const meta = { singleton: values.folder ? false : values.singleton, icon: values.icon ?? null, note: values.note?.trim() || null, group: values.group ?? null };
    try {
      await mutateAsync({
        resource: 'collections',
        values: { collection: values.collection, meta, schema: values.folder ? null : {}, ...(values.folder ? {} : { fields: primaryKeyFields(values.primaryKey) }) },
        successNotification: false,
        errorNotification: false,
      });
      await schema.reload();
      form.resetFields();
      onCreated(values.collection);
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['collection', 'icon', 'note', 'group']));
    }
  };

  return (
    <Modal
      open={open}
      title={translate('dataModel.create.title')}
      okText={translate('shared.actions.create')}
      cancelText={translate('shared.actions.cancel')}
      confirmLoading={mutation.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ folder: false, primaryKey: 'integer', singleton: false }} onFinish={submit} preserve={false}>
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item
          name="collection"
          label={translate('dataModel.create.name')}
          extra={translate('dataModel.create.nameHelp')}
          rules={[
            { required: true, message: translate('dataModel.rules.required') },
            { pattern: COLLECTION_NAME_PATTERN, message: translate('dataModel.rules.collectionName') },
          ]}
        >
          <Input autoFocus placeholder="articles" data-testid="create-collection-name" />
        </Form.Item>
        <Form.Item name="folder" label={translate('dataModel.create.folder')} extra={translate('dataModel.create.folderHelp')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {!folder ? (
          <>
            <Form.Item name="primaryKey" label={translate('dataModel.create.primaryKey')}>
              <Radio.Group optionType="button" options={PRIMARY_KEY_KINDS.map((kind) => ({ value: kind, label: translate(`dataModel.create.primaryKey.${kind}`) }))} />
            </Form.Item>
            <Form.Item name="singleton" label={translate('dataModel.settings.singleton')} extra={translate('dataModel.settings.singletonHelp')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </>
        ) : null}
        <Form.Item name="icon" label={translate('dataModel.settings.icon')}>
          <Select allowClear options={COLLECTION_ICONS.map((icon) => ({ value: icon, label: icon }))} />
        </Form.Item>
        <Form.Item name="group" label={translate('dataModel.settings.group')}>
          <Select allowClear showSearch options={groups.map((collection) => ({ value: collection.collection, label: collection.collection }))} />
        </Form.Item>
        <Form.Item name="note" label={translate('dataModel.settings.note')}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}
