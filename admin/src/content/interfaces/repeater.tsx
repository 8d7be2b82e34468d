import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Card, Col, Empty, Form, Row, Space } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { renderTemplate } from '../display-template.ts';
import { InterfaceFor } from './index.tsx';
import { asFieldInfo, repeaterFields } from './repeater-fields.ts';
import { stringOption, type InterfaceProps } from './types.ts';

type Row = Record<string, unknown>;

/**
 * Repeater (`list`, Directus's options `fields`, `template`, `addLabel`): a JSON list of rows, each row
 * edited with its own fields' interfaces, in order; rows can be added, moved and removed.
 */
export function RepeaterInterface({ field, value, onChange, disabled, options }: InterfaceProps<Row[]>) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const fields = repeaterFields(options);
  const rows = Array.isArray(value) ? value.filter((row): row is Row => Boolean(row) && typeof row === 'object') : [];
  const template = stringOption(options, 'template');
  const write = (next: Row[]) => onChange?.(next.length > 0 ? next : null);
  const move = (from: number, to: number) => {
    const next = [...rows];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    write(next);
  };
  return (
    <div data-testid={`repeater-${field.field}`}>
      {rows.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('content.repeater.empty')} style={{ margin: '8px 0' }} /> : null}
      {rows.map((row, index) => (
        <Card
          key={index}
          size="small"
          style={{ marginBottom: 8 }}
          title={(template ? renderTemplate(template, row) : '') || `${index + 1}`}
          data-testid={`repeater-row-${field.field}-${index}`}
          extra={
            disabled ? null : (
              <Space size={0}>
                <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={index === 0} aria-label={translate('content.repeater.up')} onClick={() => move(index, index - 1)} />
                <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={index === rows.length - 1} aria-label={translate('content.repeater.down')} onClick={() => move(index, index + 1)} />
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.relation.remove')} onClick={() => write(rows.filter((_, at) => at !== index))} />
              </Space>
            )
          }
        >
          <Row gutter={16}>
            {fields.map((entry) => {
              const info = asFieldInfo(field.collection, entry);
              return (
                <Col key={entry.field} xs={24} lg={entry.meta?.width === 'half' ? 12 : 24} data-testid={`repeater-${field.field}-${index}-${entry.field}`}>
                  <Form.Item label={entry.name ? resolveText(entry.name, locale) : entry.field} required={info.meta?.required} style={{ marginBottom: 12 }}>
                    <InterfaceFor
                      field={info}
                      value={row[entry.field] as never}
                      disabled={disabled}
                      options={info.meta?.options ?? {}}
                      onChange={(next: unknown) => write(rows.map((current, at) => (at === index ? { ...current, [entry.field]: next } : current)))}
                    />
                  </Form.Item>
                </Col>
              );
            })}
          </Row>
        </Card>
      ))}
      {disabled ? null : (
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => write([...rows, {}])} data-testid={`repeater-add-${field.field}`}>
          {stringOption(options, 'addLabel') ?? translate('content.repeater.add')}
        </Button>
      )}
    </div>
  );
}
