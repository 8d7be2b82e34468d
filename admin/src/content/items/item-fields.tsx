import { useTranslate } from '@refinedev/core';
import { Col, Form, Row } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { fieldState } from '../conditions.ts';
import { fieldLabel } from '../field-label.ts';
import { isPresentational } from '../field-kinds.ts';
import { InterfaceFor } from '../interfaces/index.tsx';
import type { FieldInfo } from '../schema/types.ts';

/** Whether a field appears on the form at all (keys the database fills are left out when creating). */
export function isFormField(field: FieldInfo, creating: boolean): boolean {
  if (isPresentational(field)) return false;
  if (creating && field.schema?.is_primary_key && (field.schema.has_auto_increment || field.meta?.special?.includes('uuid'))) return false;
  return true;
}

/**
 * The fields of an item in a two-column grid (`width` half or full), each with its interface, label,
 * note, required mark and read-only state; conditions re-evaluate as values change.
 */
export function ItemFields({ fields, creating, canWrite }: { fields: FieldInfo[]; creating: boolean; canWrite: (field: FieldInfo) => boolean }) {
  const { locale } = usePreferences();
  const translate = useTranslate();
  const form = Form.useFormInstance();
  const values = (Form.useWatch([], { form, preserve: true }) ?? {}) as Record<string, unknown>;
  return (
    <Row gutter={24}>
      {fields
        .filter((field) => isFormField(field, creating))
        .map((field) => {
          const state = fieldState(field, values);
          if (state.hidden) return null;
          const readonly = state.readonly || !canWrite(field) || Boolean(field.schema?.is_primary_key && !creating);
          return (
            <Col key={field.field} xs={24} lg={field.meta?.width === 'half' ? 12 : 24}>
              <Form.Item
                name={field.field}
                label={fieldLabel(field, locale)}
                extra={field.meta?.note ?? undefined}
                required={state.required && !readonly}
                rules={state.required && !readonly ? [{ validator: (_, value) => (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? Promise.reject(new Error(translate('content.item.required', { field: fieldLabel(field, locale) }))) : Promise.resolve()) }] : undefined}
                data-testid={`field-${field.field}`}
              >
                <InterfaceFor field={field} options={state.options} disabled={readonly} />
              </Form.Item>
            </Col>
          );
        })}
    </Row>
  );
}
