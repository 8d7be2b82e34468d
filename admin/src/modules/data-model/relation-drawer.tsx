import { useDataProvider, useTranslation } from '@refinedev/core';
import { Alert, Button, Drawer, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import { FIELD_NAME_PATTERN, COLLECTION_NAME_PATTERN } from './field-types.ts';
import { LANGUAGES_COLLECTION, RELATION_KINDS, planRelation, primaryKeyType, relatedOf, suggestedNames, undoSteps, type KeyType, type RelationInput } from './relation-plan.ts';

/** Collections a relation may point at: user collections with a table, users and files. */
const RELATABLE_SYSTEM = ['tessera_users', 'tessera_files', 'tessera_roles'];

/** An example name of the new field, per kind. */
const FIELD_EXAMPLES: Readonly<Record<RelationInput['kind'], string>> = { m2o: 'author', o2m: 'comments', m2m: 'tags', m2a: 'blocks', translations: 'translations', files: 'gallery', image: 'cover' };

/** The languages a new languages collection starts with: the admin's own. */
const DEFAULT_LANGUAGES = [
  { code: 'en-US', name: 'English (United States)' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
];

/** Creates a relation of any kind (RELATION_KINDS) from `collection`. */
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
    // A translations field without a languages collection makes one, with the admin's own languages.
    const newLanguages = values.kind === 'translations' && !values.related && !schema.collection(LANGUAGES_COLLECTION);
    const input = { ...values, collection, ...(newLanguages ? { related: LANGUAGES_COLLECTION, createLanguages: DEFAULT_LANGUAGES } : {}) };
    const keyTypes: Record<string, KeyType> = { [collection]: primaryKeyType(schema.fieldsOf(collection)) };
    const target = relatedOf(input);
    if (target && !newLanguages) keyTypes[target] = primaryKeyType(schema.fieldsOf(target));
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

  const fixedTarget = kind === 'files' || kind === 'image';
  const makesLanguages = kind === 'translations' && !schema.collection(LANGUAGES_COLLECTION);
  const names = related || kind === 'm2a' || kind === 'translations' || kind === 'files' ? suggestedNames({ kind, collection, related, field: fieldName }) : null;
  const nameRules = [{ required: true, message: translate('dataModel.rules.required') }, { pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') }];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width="min(520px, 100vw)"
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
          <Input placeholder={FIELD_EXAMPLES[kind]} data-testid="relation-field" />
        </Form.Item>
        {fixedTarget ? null : kind === 'm2a' ? (
          <Form.Item name="allowed" label={translate('dataModel.relation.allowed')} rules={[{ required: true, message: translate('dataModel.rules.required') }]}>
            <Select mode="multiple" showSearch options={targets.map((target) => ({ value: target.collection, label: target.collection }))} data-testid="relation-allowed" />
          </Form.Item>
        ) : (
          <Form.Item
            name="related"
            label={translate(kind === 'translations' ? 'dataModel.relation.languages' : 'dataModel.relation.related')}
            extra={makesLanguages ? translate('dataModel.relation.languagesCreated', { collection: LANGUAGES_COLLECTION }) : undefined}
            rules={[{ required: !makesLanguages, message: translate('dataModel.rules.required') }]}
          >
            <Select showSearch allowClear={makesLanguages} options={targets.map((target) => ({ value: target.collection, label: target.collection }))} data-testid="relation-related" />
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
        {kind === 'm2m' || kind === 'm2a' || kind === 'translations' || kind === 'files' ? (
          <Form.Item name="junction" label={translate('dataModel.relation.junction')} extra={translate('dataModel.relation.junctionHelp')} rules={[{ pattern: COLLECTION_NAME_PATTERN, message: translate('dataModel.rules.collectionName') }]}>
            <Input placeholder={names?.junction} />
          </Form.Item>
        ) : null}
        {kind === 'm2o' || kind === 'o2m' || kind === 'image' ? (
          <Form.Item name="onDelete" label={translate('dataModel.relation.onDelete')}>
            <Select options={(['SET NULL', 'CASCADE', 'NO ACTION', 'RESTRICT'] as const).map((value) => ({ value, label: translate(`dataModel.relation.onDelete.${value.replace(' ', '_')}`) }))} />
          </Form.Item>
        ) : null}
        {kind !== 'm2o' && kind !== 'image' && kind !== 'translations' ? (
          <Form.Item name="deselectAction" label={translate('dataModel.relation.deselect')}>
            <Radio.Group options={(['nullify', 'delete'] as const).map((value) => ({ value, label: translate(`dataModel.relation.deselect.${value}`) }))} />
          </Form.Item>
        ) : null}
      </Form>
    </Drawer>
  );
}
