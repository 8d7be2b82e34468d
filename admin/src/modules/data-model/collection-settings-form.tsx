import { useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Col, ColorPicker, Divider, Form, Input, Row, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useSchema } from '../../content/schema/schema-context.tsx';
import type { CollectionInfo, FieldInfo } from '../../content/schema/types.ts';
import { applyServerErrors } from '../shared/server-errors.ts';
import { ACCOUNTABILITY_CHOICES, COLLECTION_ICONS } from './collection-options.ts';
import { TranslationsList } from './translations-list.tsx';

type Meta = NonNullable<CollectionInfo['meta']>;

interface Values extends Omit<Meta, 'accountability' | 'color'> {
  accountability: 'all' | 'activity' | 'none';
  color: string | null;
}

const FORM_FIELDS = ['singleton', 'hidden', 'icon', 'color', 'note', 'display_template', 'sort_field', 'archive_field', 'archive_value', 'unarchive_value', 'archive_app_filter', 'accountability', 'group', 'collapse', 'translations', 'versioning', 'preview_url', 'item_duplication_fields'];

function toValues(meta: Meta | null): Partial<Values> {
  return { ...meta, accountability: meta?.accountability ?? 'none', translations: meta?.translations ?? [] } as Partial<Values>;
}

/** The meta PATCH body: `none` accountability is null, blanks are null. */
function toMeta(values: Values): Record<string, unknown> {
  const blank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : (value ?? null));
  const translations = (values.translations ?? []).filter((entry) => entry?.language && entry?.translation);
  return {
    singleton: values.singleton ?? false,
    hidden: values.hidden ?? false,
    icon: blank(values.icon),
    color: blank(values.color),
    note: blank(values.note),
    display_template: blank(values.display_template),
    sort_field: blank(values.sort_field),
    archive_field: blank(values.archive_field),
    archive_value: blank(values.archive_value),
    unarchive_value: blank(values.unarchive_value),
    archive_app_filter: values.archive_app_filter ?? true,
    accountability: values.accountability === 'none' ? null : values.accountability,
    group: blank(values.group),
    collapse: values.collapse ?? 'open',
    translations: translations.length > 0 ? translations : null,
    versioning: values.versioning ?? false,
    preview_url: blank(values.preview_url),
    item_duplication_fields: values.item_duplication_fields && values.item_duplication_fields.length > 0 ? values.item_duplication_fields : null,
  };
}

/** A collection's settings (SPEC §3 "Collection settings"): saved with PATCH /collections/:collection. */
export function CollectionSettingsForm({ collection, fields }: { collection: CollectionInfo; fields: FieldInfo[] }) {
  const { translate } = useTranslation();
  const schema = useSchema();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useUpdate();
  const archiveField = Form.useWatch('archive_field', form);
  const columns = fields.filter((field) => field.type !== 'alias');
  const fieldOptions = columns.map((field) => ({ value: field.field, label: field.field }));
  const sortOptions = columns.filter((field) => ['integer', 'bigInteger', 'float', 'decimal'].includes(field.type)).map((field) => ({ value: field.field, label: field.field }));
  // What "Save as copy" may carry: every value field, and the rows of every relational list field (`tags.*`).
  const duplicationOptions = fields.filter((field) => !field.schema?.is_primary_key && !(field.meta?.special ?? []).some((special) => special === 'group' || special === 'no-data')).map((field) => (field.type === 'alias' ? `${field.field}.*` : field.field)).map((value) => ({ value, label: value }));
  const groups = schema.collections.filter((other) => !other.collection.startsWith('tessera_') && other.collection !== collection.collection);

  useEffect(() => {
    form.setFieldsValue(toValues(collection.meta) as never);
  }, [collection, form]);

  const save = async (values: Values) => {
    setError(null);
    try {
      await mutateAsync({ resource: 'collections', id: collection.collection, values: { meta: toMeta(values) }, successNotification: { type: 'success', message: translate('shared.saved') }, errorNotification: false });
      await schema.reload();
    } catch (failure) {
      setError(applyServerErrors(form, failure, FORM_FIELDS));
    }
  };

  return (
    <Form<Values> form={form} layout="vertical" onFinish={save} data-testid="collection-settings-form">
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="icon" label={translate('dataModel.settings.icon')}>
            <Select allowClear options={COLLECTION_ICONS.map((icon) => ({ value: icon, label: icon }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="color" label={translate('dataModel.settings.color')} getValueFromEvent={(color) => (color ? `#${color.toHex()}` : null)}>
            <ColorPicker allowClear showText format="hex" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="note" label={translate('dataModel.settings.note')}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
      <Form.Item name="display_template" label={translate('dataModel.settings.displayTemplate')} extra={translate('dataModel.settings.displayTemplateHelp')}>
        <Input placeholder="{{title}}" data-testid="collection-display-template" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item name="singleton" label={translate('dataModel.settings.singleton')} valuePropName="checked" tooltip={translate('dataModel.settings.singletonHelp')}>
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="hidden" label={translate('dataModel.settings.hidden')} valuePropName="checked" tooltip={translate('dataModel.settings.hiddenHelp')}>
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="accountability" label={translate('dataModel.settings.accountability')}>
            <Select options={ACCOUNTABILITY_CHOICES.map((choice) => ({ value: choice.value, label: translate(choice.label) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="group" label={translate('dataModel.settings.group')}>
            <Select allowClear showSearch options={groups.map((group) => ({ value: group.collection, label: group.collection }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="collapse" label={translate('dataModel.settings.collapse')}>
            <Select options={['open', 'closed', 'locked'].map((value) => ({ value, label: translate(`dataModel.settings.collapse.${value}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Divider plain orientation="left">
        {translate('dataModel.settings.sortAndArchive')}
      </Divider>
      <Form.Item name="sort_field" label={translate('dataModel.settings.sortField')} extra={translate('dataModel.settings.sortFieldHelp')}>
        <Select allowClear options={sortOptions} />
      </Form.Item>
      <Form.Item name="archive_field" label={translate('dataModel.settings.archiveField')}>
        <Select allowClear options={fieldOptions} />
      </Form.Item>
      {archiveField ? (
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="archive_value" label={translate('dataModel.settings.archiveValue')}>
              <Input placeholder="archived" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="unarchive_value" label={translate('dataModel.settings.unarchiveValue')}>
              <Input placeholder="draft" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="archive_app_filter" label={translate('dataModel.settings.archiveAppFilter')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      ) : null}
      <Divider plain orientation="left">
        {translate('dataModel.settings.versionsAndCopies')}
      </Divider>
      <Form.Item name="versioning" label={translate('dataModel.settings.versioning')} valuePropName="checked" tooltip={translate('dataModel.settings.versioningHelp')}>
        <Switch data-testid="collection-versioning" />
      </Form.Item>
      <Form.Item name="item_duplication_fields" label={translate('dataModel.settings.duplicationFields')} extra={translate('dataModel.settings.duplicationFieldsHelp')}>
        <Select mode="tags" allowClear options={duplicationOptions} tokenSeparators={[',']} data-testid="collection-duplication-fields" />
      </Form.Item>
      <Form.Item name="preview_url" label={translate('dataModel.settings.previewUrl')} extra={translate('dataModel.settings.previewUrlHelp')}>
        <Input placeholder="https://example.com/preview/{{id}}" data-testid="collection-preview-url" />
      </Form.Item>
      <Divider plain orientation="left">
        {translate('dataModel.settings.translations')}
      </Divider>
      <TranslationsList name="translations" withForms />
      <div style={{ marginTop: 24 }}>
        <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="collection-settings-save">
          {translate('shared.actions.save')}
        </Button>
      </div>
    </Form>
  );
}
