import { useTranslation } from '@refinedev/core';
import { Alert, Button, Checkbox, Drawer, Flex, Form, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { JsonRuleInput } from '../shared/json-rule-input.tsx';
import { parseFilter, parseJsonObject, toJsonText } from '../shared/json-rules.ts';
import { WRITE_ACTIONS, toCustomPermission, type CustomPermission, type PermissionAction, type PermissionRow } from './permission-matrix.ts';

interface Values {
  allFields: boolean;
  fields: string[];
  permissions: string;
  validation: string;
  presets: string;
}

/** The custom settings of one cell: field checkboxes, item rule, and for writes validation and presets. */
export function PermissionDrawer({
  target,
  row,
  onClose,
  onSave,
}: {
  target: { collection: string; action: PermissionAction } | null;
  row: PermissionRow | undefined;
  onClose(): void;
  onSave(setting: CustomPermission): Promise<void>;
}) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const allFields = Form.useWatch('allFields', form);
  const fields = target ? schema.fieldsOf(target.collection).map((field) => field.field) : [];
  const writes = target ? WRITE_ACTIONS.includes(target.action) : false;

  useEffect(() => {
    if (!target) return;
    setError(null);
    const setting = toCustomPermission(row);
    form.setFieldsValue({
      allFields: setting.fields === '*',
      fields: setting.fields === '*' ? fields : setting.fields,
      permissions: toJsonText(setting.permissions),
      validation: toJsonText(setting.validation),
      presets: toJsonText(setting.presets),
    });
    // Reset only when another cell opens, not when the schema reloads.
  }, [target, row]);

  const save = async (values: Values) => {
    const permissions = parseFilter(values.permissions);
    const validation = parseFilter(values.validation);
    const presets = parseJsonObject(values.presets);
    if (!permissions.ok || !validation.ok || !presets.ok) return;
    setSaving(true);
    setError(null);
    try {
      await onSave({
        fields: values.allFields ? '*' : (values.fields ?? []),
        permissions: permissions.value,
        validation: writes ? validation.value : null,
        presets: writes ? presets.value : null,
      });
    } catch (failure) {
      setError((failure as Error).message ?? String(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      width={560}
      title={target ? `${translate(`roles.actions.${target.action}`)} · ${target.collection}` : ''}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{translate('shared.actions.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="permission-save">
            {translate('shared.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form<Values> form={form} layout="vertical" onFinish={save}>
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Typography.Title level={5}>{translate('roles.drawer.fields')}</Typography.Title>
        <Form.Item name="allFields" valuePropName="checked" label={translate('roles.drawer.allFields')}>
          <Switch data-testid="permission-all-fields" />
        </Form.Item>
        {!allFields ? (
          <Form.Item name="fields" extra={translate('roles.drawer.fieldsHelp')}>
            <Checkbox.Group style={{ width: '100%' }}>
              <Flex vertical gap={4}>
                {fields.map((field) => (
                  <Checkbox key={field} value={field} data-testid={`permission-field-${field}`}>
                    {field}
                  </Checkbox>
                ))}
              </Flex>
            </Checkbox.Group>
          </Form.Item>
        ) : null}
        <Typography.Title level={5}>{translate('roles.drawer.itemRule')}</Typography.Title>
        <JsonRuleInput name="permissions" kind="filter" label={null} extra={translate('roles.drawer.itemRuleHelp')} placeholder='{ "status": { "_eq": "published" } }' />
        {writes ? (
          <>
            <Typography.Title level={5}>{translate('roles.drawer.validation')}</Typography.Title>
            <JsonRuleInput name="validation" kind="filter" label={null} extra={translate('roles.drawer.validationHelp')} placeholder='{ "title": { "_nnull": true } }' />
            <Typography.Title level={5}>{translate('roles.drawer.presets')}</Typography.Title>
            <JsonRuleInput name="presets" kind="object" label={null} extra={translate('roles.drawer.presetsHelp')} placeholder='{ "status": "draft", "owner": "$CURRENT_USER" }' />
          </>
        ) : null}
      </Form>
    </Drawer>
  );
}
