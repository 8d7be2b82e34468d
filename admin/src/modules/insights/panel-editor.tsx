import { useCreate, useCustomMutation, useTranslation, useUpdate } from '@refinedev/core';
import { Alert, Button, Card, ColorPicker, Drawer, Flex, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toFilter, type FilterGroup } from '../../content/filter-builder/filter-model.ts';
import { fromFilter } from '../../content/items/list-preset.ts';
import type { TesseraFilter } from '../../providers/query-mapping.ts';
import { parseFilter, toJsonText } from '../shared/json-rules.ts';
import { applyServerErrors } from '../shared/server-errors.ts';
import { placementForNew } from './grid-layout.ts';
import { EMPTY_FILTER } from './panel-filter-input.tsx';
import { PanelOptionsForm } from './panel-options-form.tsx';
import type { PanelResult } from './panel-results.ts';
import { COLLECTION_TYPES, DEFAULT_SIZE, cleanOptions, defaultOptions, isBuiltInPanel, type PanelOptions, type PanelRecord, type PanelType } from './panel-types.ts';
import { panels as panelRegistry } from '../../extensions/kinds.ts';
import { useRegistry } from '../../extensions/registry.ts';
import { ExtensionPanelOptions } from './extension-panel-options.tsx';
import { PanelContent, usePanelTypeName } from './panel-content.tsx';

/** Grid size of a new extension panel whose definition names none. */
const EXTENSION_PANEL_SIZE = { width: 6, height: 4 };

interface EditorValues {
  /** A built-in PanelType or an extension panel's id. */
  type: string;
  name?: string;
  note?: string;
  color?: string;
  show_header?: boolean;
  options?: PanelOptions;
  filterGroup?: FilterGroup;
  filterText?: string;
}

const colorValue = (color: { toHexString(): string } | null) => (color ? color.toHexString() : undefined);

/** The options as the API takes them: filled fields only, the filter from the builder's rules (or its JSON text). */
function optionsOf(values: EditorValues, filterAsJson: boolean): PanelOptions | null {
  const options: PanelOptions = { ...(values.options ?? {}) };
  if (COLLECTION_TYPES.includes(values.type as PanelType)) {
    if (filterAsJson) {
      const filter = parseFilter(values.filterText);
      if (!filter.ok) return null;
      if (filter.value) options.filter = filter.value;
    } else {
      const filter = toFilter(values.filterGroup ?? EMPTY_FILTER);
      if (filter) options.filter = filter;
    }
  }
  return cleanOptions(options);
}

/** The dashboard's variable names (its global and relational variable panels), for `{{ name }}` in filters. */
function variableNames(panels: readonly PanelRecord[]): string[] {
  return panels.filter((entry) => entry.type === 'global-variable' || entry.type === 'relational-variable').flatMap((entry) => (typeof entry.options?.field === 'string' ? [entry.options.field] : []));
}

/**
 * Adds a panel (panel null) or edits one: its type, header, and the type's options, with a live preview
 * computed by the server (`POST /panels/preview`) as the options change.
 */
export function PanelEditor({ open, dashboard, panel, panels, variables, timeZone, onClose }: { open: boolean; dashboard: string; panel: PanelRecord | null; panels: readonly PanelRecord[]; variables: Record<string, unknown>; timeZone: string; onClose(saved: boolean): void }) {
  const { translate } = useTranslation();
  const [form] = Form.useForm<EditorValues>();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ result: PanelResult | undefined; loading: boolean; error: string | null }>({ result: undefined, loading: false, error: null });
  const { mutateAsync: create, mutation: creating } = useCreate();
  const { mutateAsync: update, mutation: updating } = useUpdate();
  const { mutateAsync: requestPreview } = useCustomMutation<PanelResult>();
  const values = Form.useWatch([], form) as EditorValues | undefined;
  // A stored filter the builder cannot show (nested groups, _some …) stays editable as JSON.
  const storedFilter = panel?.options?.filter as TesseraFilter | undefined;
  const filterAsJson = !!storedFilter && fromFilter(storedFilter) === null;
  const type = (Form.useWatch('type', form) as string | undefined) ?? panel?.type ?? 'metric';
  const registered = useRegistry(panelRegistry);
  const typeName = usePanelTypeName();

  useEffect(() => {
    if (!open) return;
    setError(null);
    setPreview({ result: undefined, loading: false, error: null });
    form.resetFields();
    const options = panel?.options ?? defaultOptions('metric');
    const { filter, ...rest } = options;
    form.setFieldsValue({ type: panel?.type ?? 'metric', name: panel?.name ?? '', note: panel?.note ?? '', color: panel?.color ?? undefined, show_header: panel?.show_header ?? true, options: rest as EditorValues["options"] & object, filterText: filter ? toJsonText(filter) : '', filterGroup: (filter && fromFilter(filter as TesseraFilter)) || EMPTY_FILTER });
  }, [open, panel, form]);

  // The preview follows the form after a short pause; an older answer never overwrites a newer one.
  const serialized = JSON.stringify(values ? { type: values.type, options: optionsOf(values, filterAsJson) } : null);
  useEffect(() => {
    if (!open || !values?.type) return;
    const options = optionsOf(values, filterAsJson);
    if (!options) return;
    // Labels and global variables need no data; an extension's panel reads its own.
    if (values.type === 'label' || values.type === 'global-variable' || !isBuiltInPanel(values.type)) {
      setPreview({ result: {}, loading: false, error: null });
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      setPreview((state) => ({ ...state, loading: true }));
      try {
        const answer = await requestPreview({ url: '/panels/preview', method: 'post', values: { type: values.type, options, variables }, successNotification: false, errorNotification: false });
        if (current) setPreview({ result: answer.data as PanelResult, loading: false, error: null });
      } catch (failure) {
        if (current) setPreview({ result: undefined, loading: false, error: (failure as { message?: string }).message ?? 'Error' });
      }
    }, 350);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `serialized` stands for the values the preview depends on.
  }, [open, serialized, requestPreview]);

  const changeType = (next: string) => {
    const keep = form.getFieldValue(['options', 'collection']) as string | undefined;
    if (!isBuiltInPanel(next)) {
      form.setFieldValue('options', keep && panelRegistry.get(next)?.options?.some((option) => option.type === 'collection') ? { collection: keep } : {});
      return;
    }
    form.setFieldValue('options', { ...defaultOptions(next), ...(keep && COLLECTION_TYPES.includes(next) ? { collection: keep } : {}) });
  };

  const submit = async (submitted: EditorValues) => {
    setError(null);
    const all = { ...form.getFieldsValue(true), ...submitted } as EditorValues;
    const options = optionsOf(all, filterAsJson);
    if (!options) return;
    const payload = { type: all.type, name: all.name?.trim() || null, note: all.note?.trim() || null, color: all.color ?? null, show_header: all.show_header !== false, options };
    try {
      if (panel) await update({ resource: 'panels', id: panel.id, values: payload, successNotification: false, errorNotification: false });
      else {
        const size = isBuiltInPanel(all.type) ? DEFAULT_SIZE[all.type] : (panelRegistry.get(all.type)?.defaultSize ?? EXTENSION_PANEL_SIZE);
        await create({ resource: 'panels', values: { ...payload, dashboard, ...placementForNew(panels, size) }, successNotification: false, errorNotification: false });
      }
      onClose(true);
    } catch (failure) {
      setError(applyServerErrors(form, failure, ['name', 'note', 'type', ...Object.keys(all.options ?? {})]));
    }
  };

  return (
    <Drawer
      open={open}
      onClose={() => onClose(false)}
      width={Math.min(960, typeof window === 'undefined' ? 960 : window.innerWidth - 40)}
      title={translate(panel ? 'insights.panel.edit' : 'insights.panel.add')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => onClose(false)}>{translate('shared.actions.cancel')}</Button>
          <Button type="primary" loading={creating.isPending || updating.isPending} onClick={() => form.submit()} data-testid="panel-save">
            {translate('shared.actions.save')}
          </Button>
        </Space>
      }
    >
      <Flex gap={24} wrap align="start">
        <Form form={form} layout="vertical" onFinish={submit} style={{ flex: '1 1 360px', minWidth: 300 }} data-testid="panel-form">
          {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
          <Form.Item name="type" label={translate('insights.panel.type')} rules={[{ required: true }]}>
            <Select disabled={!!panel} onChange={changeType} data-testid="panel-type" options={registered.map((entry) => ({ value: entry.id, label: typeName(entry.id) }))} />
          </Form.Item>
          <Flex gap={12}>
            <Form.Item name="name" label={translate('insights.panel.name')} style={{ flex: 1 }}>
              <Input data-testid="panel-name" />
            </Form.Item>
            <Form.Item name="show_header" label={translate('insights.panel.showHeader')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="color" label={translate('insights.panel.color')} getValueFromEvent={colorValue}>
              <ColorPicker allowClear format="hex" />
            </Form.Item>
          </Flex>
          <Form.Item name="note" label={translate('insights.panel.note')}>
            <Input />
          </Form.Item>
          <Typography.Title level={5}>{translate('insights.panel.options')}</Typography.Title>
          {isBuiltInPanel(type) ? <PanelOptionsForm type={type} form={form} variables={variableNames(panels)} filterAsJson={filterAsJson} /> : <ExtensionPanelOptions definition={panelRegistry.get(type)} />}
        </Form>
        <Card size="small" title={translate('insights.panel.preview')} style={{ flex: '1 1 320px', minWidth: 280, position: 'sticky', top: 0 }} styles={{ body: { height: 300 } }}>
          {preview.error ? (
            <Alert type="warning" showIcon message={preview.error} data-testid="panel-preview-error" />
          ) : (
            <PanelContent type={type} options={(values && optionsOf(values, filterAsJson)) ?? {}} result={preview.result} loading={preview.loading} timeZone={timeZone} testId="panel-preview" />
          )}
        </Card>
      </Flex>
    </Drawer>
  );
}
