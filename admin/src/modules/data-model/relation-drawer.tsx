import { useDataProvider, useTranslation } from '@refinedev/core';
import { Alert, Button, Drawer, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { FIELD_NAME_PATTERN, COLLECTION_NAME_PATTERN } from './field-types.ts';
import { RELATION_KINDS, planRelation, primaryKeyType, suggestedNames, undoSteps, type KeyType, type RelationInput } from './relation-plan.ts';

/** Collections a relation may point at: user collections with a table, users and files. */
const RELATABLE_SYSTEM = ['tessera_users', 'tessera_files', 'tessera_roles'];

/** Creates a many-to-one, one-to-many, many-to-many or many-to-any relation from `collection`. */
export function RelationDrawer({ collection, open, onClose, onSaved }: { collection: string; open: boolean; onClose(): void; onSaved(): void }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const dataProvider = useDataProvider();
  const [form] = Form.useForm<RelationInput>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form) ?? 'm2o';
  const related = Form.useWatch('related', form);
  const fieldName = Form.useWatch('field', form);
  const targets = schema.collections.filter((other) => other.schema && (!other.collection.startsWith('tessera_') || RELATABLE_SYSTEM.includes(other.collection)));

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
  }, [open, form]);

  const save = async (values: RelationInput) => {
    setError(null);
    setSaving(true);
    const input = { ...values, collection };
    const keyTypes: Record<string, KeyType> = { [collection]: primaryKeyType(schema.fieldsOf(collection)) };
    if (values.related) keyTypes[values.related] = primaryKeyType(schema.fieldsOf(values.related));
    const plan = planRelation(input, keyTypes);
    const api = dataProvider();
    let done = 0;
    try {
      for (const step of plan.steps) {
        await api.custom!({ url: step.path, method: step.method === 'POST' ? 'post' : 'delete', payload: step.body });
        done += 1;
      }
      await schema.reload();
      onSaved();
    } catch (failure) {
      // Leave nothing half made: undo the steps that succeeded, last first.
      for (const step of undoSteps(plan, done)) await api.custom!({ url: step.path, method: 'delete' }).catch(() => undefined);
      setError(applyServerErrors(form, failure, ['field', 'related', 'reverseField', 'junction', 'allowed']) ?? null);
    } finally {
      setSaving(false);
    }
  };

  const names = related || kind === 'm2a' ? suggestedNames({ kind, collection, related, field: fieldName }) : null;
  const nameRules = [{ required: true, message: translate('dataModel.rules.required') }, { pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') }];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={520}
      title={translate('dataModel.relation.create')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{translate('shared.actions.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="relation-save">
            {translate('shared.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form<RelationInput> form={form} layout="vertical" initialValues={{ kind: 'm2o', onDelete: 'SET NULL', deselectAction: 'nullify' }} onFinish={save}>
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item name="kind" label={translate('dataModel.relation.kind')}>
          <Radio.Group
            optionType="button"
            options={RELATION_KINDS.map((value) => ({ value, label: translate(`dataModel.relation.kind.${value}`) }))}
            data-testid="relation-kind"
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{translate(`dataModel.relation.help.${kind}`)}</Typography.Paragraph>
        <Form.Item name="field" label={translate('dataModel.relation.field')} rules={nameRules}>
          <Input placeholder={kind === 'm2o' ? 'author' : 'tags'} data-testid="relation-field" />
        </Form.Item>
        {kind === 'm2a' ? (
          <Form.Item name="allowed" label={translate('dataModel.relation.allowed')} rules={[{ required: true, message: translate('dataModel.rules.required') }]}>
            <Select mode="multiple" showSearch options={targets.map((target) => ({ value: target.collection, label: target.collection }))} data-testid="relation-allowed" />
          </Form.Item>
        ) : (
          <Form.Item name="related" label={translate('dataModel.relation.related')} rules={[{ required: true, message: translate('dataModel.rules.required') }]}>
            <Select showSearch options={targets.map((target) => ({ value: target.collection, label: target.collection }))} data-testid="relation-related" />
          </Form.Item>
        )}
        {kind === 'm2o' ? (
          <Form.Item name="reverseField" label={translate('dataModel.relation.reverseAlias')} extra={translate('dataModel.relation.reverseAliasHelp')} rules={[{ pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') }]}>
            <Input />
          </Form.Item>
        ) : null}
        {kind === 'o2m' ? (
          <Form.Item name="reverseField" label={translate('dataModel.relation.foreignKey')} extra={translate('dataModel.relation.foreignKeyHelp')} rules={[{ pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') }]}>
            <Input placeholder={names?.reverseField} />
          </Form.Item>
        ) : null}
        {kind === 'm2m' || kind === 'm2a' ? (
          <Form.Item name="junction" label={translate('dataModel.relation.junction')} extra={translate('dataModel.relation.junctionHelp')} rules={[{ pattern: COLLECTION_NAME_PATTERN, message: translate('dataModel.rules.collectionName') }]}>
            <Input placeholder={names?.junction} />
          </Form.Item>
        ) : null}
        {kind === 'm2o' || kind === 'o2m' ? (
          <Form.Item name="onDelete" label={translate('dataModel.relation.onDelete')}>
            <Select options={(['SET NULL', 'CASCADE', 'NO ACTION', 'RESTRICT'] as const).map((value) => ({ value, label: translate(`dataModel.relation.onDelete.${value.replace(' ', '_')}`) }))} />
          </Form.Item>
        ) : null}
        {kind !== 'm2o' ? (
          <Form.Item name="deselectAction" label={translate('dataModel.relation.deselect')}>
            <Radio.Group options={(['nullify', 'delete'] as const).map((value) => ({ value, label: translate(`dataModel.relation.deselect.${value}`) }))} />
          </Form.Item>
        ) : null}
      </Form>
    </Drawer>
  );
}
