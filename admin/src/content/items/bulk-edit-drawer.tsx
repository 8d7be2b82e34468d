import { useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Drawer, Empty, Form, Grid, Select } from 'antd';
import { useMemo, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { fieldLabel } from '../field-label.ts';
import { isPresentational, isToMany } from '../field-kinds.ts';
import { InterfaceFor } from '../interfaces/index.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { batchBody, type BulkTarget } from './bulk-selection.ts';
import { relationalValue } from './payload.ts';
import { useCollection } from './use-collection.ts';

/**
 * Whether bulk edit offers a field: one value for every selected item makes sense (no keys, no lists of
 * related items, nothing read-only) and the caller's update permission includes it.
 */
function isBulkEditable(field: FieldInfo, canUpdate: (name: string) => boolean): boolean {
  if (isPresentational(field) || isToMany(field) || field.schema?.is_primary_key || field.meta?.readonly) return false;
  return canUpdate(field.field);
}

/**
 * Directus's batch edit: the user picks the fields to change, gives each one value, and one
 * `PATCH /items/<collection>` with `{ keys | query, data }` writes them to every selected item in one
 * transaction. Fields the role may not update are not offered; the server refuses them anyway.
 */
export function BulkEditDrawer({ collection, target, count, open, onClose, onDone }: { collection: string; target: BulkTarget; count: number; open: boolean; onClose(): void; onDone(): void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { locale } = usePreferences();
  const invalidate = useInvalidate();
  const model = useCollection(collection);
  const [form] = Form.useForm();
  const [chosen, setChosen] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const narrow = !(Grid.useBreakpoint().md ?? true);
  const editable = useMemo(() => model.fields.filter((field) => isBulkEditable(field, (name) => model.canField('update', name))), [model]);

  const close = () => {
    form.resetFields();
    setChosen([]);
    setFailure(null);
    onClose();
  };
  const apply = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    for (const name of chosen) {
      const field = editable.find((entry) => entry.field === name);
      if (field) data[name] = relationalValue(field, values[name] ?? null, model.targetOf(field));
    }
    setSaving(true);
    setFailure(null);
    try {
      await apiRequest(`/items/${encodeURIComponent(collection)}`, { method: 'PATCH', query: { fields: model.primaryKey, limit: -1 }, body: batchBody(target, data) });
      message.success(translate('content.bulk.saved', { count }));
      await invalidate({ resource: collection, invalidates: ['list', 'many', 'detail'] });
      close();
      onDone();
    } catch (error) {
      setFailure((error as ApiHttpError).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={close}
      width={narrow ? '100%' : 560}
      title={translate('content.bulk.title', { count })}
      destroyOnHidden
      extra={
        <Button type="primary" onClick={() => void apply()} loading={saving} disabled={chosen.length === 0} data-testid="bulk-edit-apply">
          {translate('content.bulk.apply')}
        </Button>
      }
      data-testid="bulk-edit-drawer"
    >
      {editable.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('content.bulk.noFields')} />
      ) : (
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item label={translate('content.bulk.fields')} extra={translate('content.bulk.fieldsHelp')}>
            <Select
              mode="multiple"
              value={chosen}
              onChange={setChosen}
              optionFilterProp="label"
              options={editable.map((field) => ({ value: field.field, label: fieldLabel(field, locale) }))}
              aria-label={translate('content.bulk.fields')}
              data-testid="bulk-edit-fields"
            />
          </Form.Item>
          {chosen.map((name) => {
            const field = editable.find((entry) => entry.field === name);
            if (!field) return null;
            return (
              <Form.Item key={name} name={name} label={fieldLabel(field, locale)} extra={resolveText(field.meta?.note, locale) ?? undefined} data-testid={`bulk-field-${name}`}>
                <InterfaceFor field={field} options={field.meta?.options ?? {}} />
              </Form.Item>
            );
          })}
        </Form>
      )}
      {failure && <Alert type="error" showIcon message={translate('content.bulk.failed')} description={failure} data-testid="bulk-edit-error" />}
    </Drawer>
  );
}
