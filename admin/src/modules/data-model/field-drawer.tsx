import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useCustomMutation, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Col, Divider, Drawer, Flex, Form, Input, InputNumber, Radio, Row, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { isGroupField } from '../../content/schema/field-groups.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { FieldInfo } from '../../content/schema/types.ts';
import { JsonRuleInput } from '../shared/json-rule-input.tsx';
import { applyServerErrors } from '../shared/server-errors.ts';
import {
  CHOICE_INTERFACES,
  FIELD_NAME_PATTERN,
  LENGTH_TYPES,
  PRECISION_TYPES,
  RECURSIVE_O2M_INTERFACES,
  TYPE_GROUPS,
  interfaceAfterTypeChange,
  interfaceLabel,
  interfacesFor,
  isPickerType,
  nextSort,
  optionsFor,
  toFieldFormValues,
  toFieldPayload,
  type FieldFormValues,
  type FieldRecord,
  type FieldType,
} from './field-types.ts';
import { InterfaceOptionsForm } from './interface-options-form.tsx';
import { DISPLAY_OPTIONS, withOptionDefaults } from '../../content/interfaces/interface-options.ts';
import { DisplaySection } from './display-section.tsx';
import { TranslationsList } from './translations-list.tsx';

const FORM_FIELDS = ['field', 'type', 'interface', 'required', 'readonly', 'hidden', 'unique', 'nullable', 'width', 'note', 'default_value', 'max_length', 'numeric_precision', 'numeric_scale', 'choices', 'options', 'display', 'display_options', 'translations', 'group', 'validation', 'validation_message'];

/** Creates a field (a type picker paired with its interfaces) or edits one. */
export function FieldDrawer({ collection, field, siblings, open, onClose, onSaved }: { collection: string; field: FieldInfo | null; siblings: FieldInfo[]; open: boolean; onClose(): void; onSaved(): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<FieldFormValues>();
  const [error, setError] = useState<string | null>(null);
  const type = Form.useWatch('type', form) as FieldType | undefined;
  const chosenInterface = Form.useWatch('interface', form) as string | undefined;
  const { mutateAsync: create, mutation: createState } = useCustomMutation();
  const { mutateAsync: update, mutation: updateState } = useUpdate();
  const editing = field !== null;
  const alias = editing && !isPickerType(field.type);
  const primaryKey = Boolean(field?.schema?.is_primary_key);
  const schema = useSchema();
  // The one alias whose interface is a choice: a recursive one-to-many, shown as a list or as a tree.
  const aliasChoices: readonly string[] = alias && schema.relations.some((relation) => relation.collection === collection && relation.related_collection === collection && relation.meta?.one_field === field.field) ? RECURSIVE_O2M_INTERFACES : [];
  const aliasInterface = (values: FieldFormValues) => (aliasChoices.includes(values.interface) ? values.interface : (field?.meta?.interface ?? null));
  // The group fields this field can move into (not itself).
  const groups = siblings.filter((sibling) => isGroupField(sibling) && sibling.field !== field?.field);

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    const initial = field ? toFieldFormValues(field as FieldRecord) : ({ type: 'string', interface: 'input', width: 'full', nullable: true, options: {}, display: null, display_options: {} } as Partial<FieldFormValues>);
    // antd types nested values as `{}`; the options objects hold JSON values.
    form.setFieldsValue(initial as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, field, form]);

  const save = async (submitted: FieldFormValues) => {
    setError(null);
    // The store keeps options no form item shows (a Directus schema's), which the submitted values leave out.
    const values = { ...submitted, options: { ...form.getFieldValue('options'), ...submitted.options }, display_options: { ...form.getFieldValue('display_options'), ...submitted.display_options } };
    try {
      if (!editing) {
        const payload = toFieldPayload(values);
        const sort = nextSort(siblings);
        if (sort !== null) payload.meta.sort = sort;
        await create({ url: `/fields/${encodeURIComponent(collection)}`, method: 'post', values: payload, successNotification: false, errorNotification: false });
      } else {
        const payload = toFieldPayload(values, field as FieldRecord);
        // An alias keeps its interface (its relation decides it); its options are the options form's.
        const body = alias ? { meta: { ...payload.meta, interface: aliasInterface(values), options: optionsFor({ ...values, interface: aliasInterface(values) ?? '' }) } } : primaryKey ? { meta: payload.meta } : payload;
        await update({ resource: 'fields', id: `${collection}/${field.field}`, values: body, successNotification: false, errorNotification: false });
      }
      onSaved();
    } catch (failure) {
      setError(applyServerErrors(form, failure, FORM_FIELDS));
    }
  };

  const typeOptions = TYPE_GROUPS.map((group) => ({
    label: translate(`dataModel.typeGroups.${group.group}`),
    options: group.types.map((value) => ({ value, label: `${translate(`dataModel.types.${value}`)} (${value})` })),
  }));

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={560}
      title={editing ? `${translate('dataModel.field.edit')}: ${field.field}` : translate('dataModel.field.create')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{translate('shared.actions.cancel')}</Button>
          <Button type="primary" loading={createState.isPending || updateState.isPending} onClick={() => form.submit()} data-testid="field-save">
            {translate('shared.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form<FieldFormValues>
        form={form}
        layout="vertical"
        onFinish={save}
        onValuesChange={(changed: Partial<FieldFormValues>) => {
          const before = form.getFieldValue('interface') as string;
          if (changed.type) form.setFieldValue('interface', interfaceAfterTypeChange(changed.type, before));
          const after = form.getFieldValue('interface') as string;
          // Another interface starts from its own option defaults; the old one's options would mean nothing to it.
          if (changed.interface || after !== before) form.setFieldValue('options', withOptionDefaults(after, {}));
          if (changed.display !== undefined) form.setFieldValue('display_options', withOptionDefaults(changed.display, {}, DISPLAY_OPTIONS));
        }}
      >
        {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
        <Form.Item
          name="field"
          label={translate('dataModel.field.name')}
          rules={[
            { required: true, message: translate('dataModel.rules.required') },
            { pattern: FIELD_NAME_PATTERN, message: translate('dataModel.rules.fieldName') },
          ]}
        >
          <Input disabled={editing} placeholder="title" data-testid="field-name" />
        </Form.Item>
        {alias ? (
          <>
            <Alert type="info" showIcon message={translate('dataModel.field.aliasNote')} style={{ marginBottom: 16 }} />
            {aliasChoices.length > 0 && (
              <Form.Item name="interface" label={translate('dataModel.field.interface')}>
                <Select options={aliasChoices.map((name) => ({ value: name, label: translate(`dataModel.interfaces.${name}`) }))} data-testid="field-interface" />
              </Form.Item>
            )}
          </>
        ) : (
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="type" label={translate('dataModel.field.type')} rules={[{ required: true }]}>
                <Select options={typeOptions} disabled={primaryKey} showSearch optionFilterProp="label" data-testid="field-type" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="interface" label={translate('dataModel.field.interface')} rules={[{ required: true }]}>
                <Select options={interfacesFor(type ?? 'string').map((name) => ({ value: name, label: interfaceLabel(name, translate) }))} data-testid="field-interface" />
              </Form.Item>
            </Col>
          </Row>
        )}
        {!alias && chosenInterface && CHOICE_INTERFACES.includes(chosenInterface) ? (
          <Form.Item label={translate('dataModel.field.choices')} required>
            <Form.List name="choices">
              {(entries, { add, remove }) => (
                <>
                  {entries.map((entry) => (
                    <Flex key={entry.key} gap={8} align="baseline">
                      <Form.Item name={[entry.name, 'value']} rules={[{ required: true, message: translate('dataModel.rules.required') }]} style={{ flex: 1 }}>
                        <Input placeholder={translate('dataModel.field.choiceValue')} />
                      </Form.Item>
                      <Form.Item name={[entry.name, 'text']} style={{ flex: 1 }}>
                        <Input placeholder={translate('dataModel.field.choiceText')} />
                      </Form.Item>
                      <Button type="text" aria-label={translate('shared.actions.remove')} icon={<MinusCircleOutlined />} onClick={() => remove(entry.name)} />
                    </Flex>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ value: '', text: '' })}>
                    {translate('dataModel.field.addChoice')}
                  </Button>
                </>
              )}
            </Form.List>
          </Form.Item>
        ) : null}
        <InterfaceOptionsForm interfaceId={alias && aliasChoices.length === 0 ? field.meta?.interface : chosenInterface} />
        {!alias && !primaryKey ? (
          <>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="default_value" label={translate('dataModel.field.default')}>
                  <Input placeholder={type === 'boolean' ? 'true / false' : ''} />
                </Form.Item>
              </Col>
              {type && LENGTH_TYPES.includes(type) ? (
                <Col span={12}>
                  <Form.Item name="max_length" label={translate('dataModel.field.maxLength')}>
                    <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder="255" />
                  </Form.Item>
                </Col>
              ) : null}
              {type && PRECISION_TYPES.includes(type) ? (
                <>
                  <Col span={6}>
                    <Form.Item name="numeric_precision" label={translate('dataModel.field.precision')}>
                      <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} placeholder="10" />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name="numeric_scale" label={translate('dataModel.field.scale')}>
                      <InputNumber min={0} max={1000} precision={0} style={{ width: '100%' }} placeholder="5" />
                    </Form.Item>
                  </Col>
                </>
              ) : null}
            </Row>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="nullable" label={translate('dataModel.field.nullable')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="unique" label={translate('dataModel.field.unique')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
          </>
        ) : null}
        <DisplaySection type={field?.type ?? type ?? 'string'} />
        <Divider plain orientation="left">
          {translate('dataModel.field.presentation')}
        </Divider>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="required" label={translate('dataModel.field.required')} valuePropName="checked">
              <Switch data-testid="field-required" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="readonly" label={translate('dataModel.field.readonly')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="hidden" label={translate('dataModel.field.hidden')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="width" label={translate('dataModel.field.width')}>
          <Radio.Group optionType="button" options={[{ value: 'half', label: translate('dataModel.field.width.half') }, { value: 'full', label: translate('dataModel.field.width.full') }]} />
        </Form.Item>
        {groups.length > 0 ? (
          <Form.Item name="group" label={translate('dataModel.field.group')} extra={translate('dataModel.field.groupHelp')}>
            <Select allowClear placeholder={translate('dataModel.field.noGroup')} options={groups.map((group) => ({ value: group.field, label: group.field }))} data-testid="field-group" />
          </Form.Item>
        ) : null}
        <Form.Item name="note" label={translate('dataModel.field.note')}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
        </Form.Item>
        <Form.Item label={translate('dataModel.field.translations')}>
          <TranslationsList name="translations" />
        </Form.Item>
        {alias ? null : (
          <>
            <Divider />
            <JsonRuleInput name="validation" kind="filter" label={translate('dataModel.field.validation')} extra={translate('dataModel.field.validationHelp')} placeholder='{ "slug": { "_regex": "^[a-z0-9-]+$" } }' />
            <Form.Item name="validation_message" label={translate('dataModel.field.validationMessage')} extra={translate('dataModel.field.validationMessageHelp')}>
              <Input data-testid="field-validation-message" />
            </Form.Item>
          </>
        )}
      </Form>
    </Drawer>
  );
}
