import { useTranslate } from '@refinedev/core';
import { Col, Collapse, Form, Row } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { fieldState } from '../conditions.ts';
import { fieldLabel } from '../field-label.ts';
import { isPresentational, isPresentationInterface } from '../field-kinds.ts';
import { InterfaceFor } from '../interfaces/index.tsx';
import { FieldHistory } from './field-history.tsx';
import { fieldTree, isGroupField, type FieldNode } from '../schema/field-groups.ts';
import type { FieldInfo } from '../schema/types.ts';
import { CollabField, useFieldLock } from './collab-field.tsx';

/** Whether a field appears on the form at all (keys the database fills are left out when creating). */
export function isFormField(field: FieldInfo, creating: boolean): boolean {
  if (isPresentational(field)) return false;
  if (creating && field.schema?.is_primary_key && (field.schema.has_auto_increment || field.meta?.special?.includes('uuid'))) return false;
  return true;
}

interface LevelProps {
  nodes: FieldNode<FieldInfo>[];
  creating: boolean;
  canWrite: (field: FieldInfo) => boolean;
  values: Record<string, unknown>;
}

/**
 * The fields of an item in a two-column grid (`width` half or full), each with its interface, label,
 * note, required mark and read-only state; conditions re-evaluate as values change. Group fields hold
 * their children (fields whose `meta.group` names them): group-detail as a collapsible panel,
 * group-accordion with each child group as one panel of an accordion, group-raw (or any other) inline.
 */
export function ItemFields({ fields, creating, canWrite }: { fields: FieldInfo[]; creating: boolean; canWrite: (field: FieldInfo) => boolean }) {
  const form = Form.useFormInstance();
  const values = (Form.useWatch([], { form, preserve: true }) ?? {}) as Record<string, unknown>;
  return <FieldLevel nodes={fieldTree(fields)} creating={creating} canWrite={canWrite} values={values} />;
}

function FieldLevel({ nodes, creating, canWrite, values }: LevelProps) {
  return (
    <Row gutter={24}>
      {nodes.map((node) => (isGroupField(node.field) ? <GroupField key={node.field.field} node={node} creating={creating} canWrite={canWrite} values={values} /> : <ValueField key={node.field.field} field={node.field} creating={creating} canWrite={canWrite} values={values} />))}
    </Row>
  );
}

function GroupField({ node, creating, canWrite, values }: { node: FieldNode<FieldInfo> } & Omit<LevelProps, 'nodes'>) {
  const { locale } = usePreferences();
  const group = node.field;
  if (fieldState(group, values).hidden) return null;
  const label = fieldLabel(group, locale);
  const testId = `group-${group.field}`;
  const width = group.meta?.width === 'half' ? 12 : 24;
  const level = (children: FieldNode<FieldInfo>[]) => <FieldLevel nodes={children} creating={creating} canWrite={canWrite} values={values} />;
  const options = (group.meta?.options ?? {}) as { start?: string };
  if (group.meta?.interface === 'group-detail') {
    return (
      <Col xs={24} lg={width} style={{ marginBottom: 24 }}>
        <Collapse
          defaultActiveKey={options.start === 'closed' ? [] : [group.field]}
          items={[{ key: group.field, label, children: level(node.children), forceRender: true }]}
          data-testid={testId}
        />
      </Col>
    );
  }
  if (group.meta?.interface === 'group-accordion') {
    // Each child is a panel (Directus expects child groups; a plain field gets a panel of its own).
    return (
      <Col xs={24} lg={width} style={{ marginBottom: 24 }} data-testid={testId}>
        <div style={{ fontWeight: 600, marginBottom: 8 }}>{label}</div>
        <Collapse
          accordion
          defaultActiveKey={options.start === 'closed' ? [] : node.children.slice(0, 1).map((child) => child.field.field)}
          items={node.children.map((child) => ({
            key: child.field.field,
            label: fieldLabel(child.field, locale),
            forceRender: true,
            children: level(isGroupField(child.field) ? child.children : [child]),
          }))}
        />
      </Col>
    );
  }
  return (
    <Col xs={24} lg={width} data-testid={testId}>
      {level(node.children)}
    </Col>
  );
}

function ValueField({ field, creating, canWrite, values }: { field: FieldInfo } & Omit<LevelProps, 'nodes'>) {
  const { locale } = usePreferences();
  const translate = useTranslate();
  // Another user editing this field locks it here (collaborative editing).
  const lock = useFieldLock(field.field);
  if (isPresentationInterface(field.meta?.interface)) return <PresentationField field={field} values={values} />;
  if (!isFormField(field, creating)) return null;
  const state = fieldState(field, values);
  if (state.hidden) return null;
  const readonly = state.readonly || !canWrite(field) || Boolean(field.schema?.is_primary_key && !creating) || lock !== null;
  return (
    <Col xs={24} lg={field.meta?.width === 'half' ? 12 : 24}>
      {!creating && <FieldHistory field={field.field} />}
      <CollabField field={field.field} lock={lock}>
        <Form.Item
          name={field.field}
          label={fieldLabel(field, locale)}
          extra={resolveText(field.meta?.note, locale) ?? undefined}
          required={state.required && !readonly}
          rules={state.required && !readonly ? [{ validator: (_, value) => (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? Promise.reject(new Error(translate('content.item.required', { field: fieldLabel(field, locale) }))) : Promise.resolve()) }] : undefined}
          data-testid={`field-${field.field}`}
        >
          <InterfaceFor field={field} options={state.options} disabled={readonly} />
        </Form.Item>
      </CollabField>
    </Col>
  );
}

/** A presentation field (divider, notice, links): no value of its own, so it is handed the item being edited. */
function PresentationField({ field, values }: { field: FieldInfo; values: Record<string, unknown> }) {
  const state = fieldState(field, values);
  if (state.hidden) return null;
  return (
    <Col xs={24} lg={field.meta?.width === 'half' ? 12 : 24}>
      <InterfaceFor field={field} options={state.options} value={values} />
    </Col>
  );
}
