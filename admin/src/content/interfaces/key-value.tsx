import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { toObject, toRows, type KeyValueRow } from './key-value-rows.ts';
import { stringOption, type InterfaceProps } from './types.ts';

type Pairs = Record<string, unknown>;
type Row = KeyValueRow;

/**
 * `key-value` (json fields): an object edited as rows of a key and a value; `keyPlaceholder`,
 * `valuePlaceholder`, `addLabel`. Rows being typed (empty or repeated keys) stay on screen; the stored
 * object holds each key once.
 */
export function KeyValueInterface({ field, value, onChange, disabled, options }: InterfaceProps<Pairs>) {
  const translate = useTranslate();
  const [rows, setRows] = useState<Row[]>(() => toRows(value));
  // The object last sent or received: a different value coming in (another item, a revert) replaces the rows.
  const [synced, setSynced] = useState<unknown>(value);
  if (value !== synced && JSON.stringify(value ?? {}) !== JSON.stringify(synced ?? {})) {
    setSynced(value);
    setRows(toRows(value));
  }
  const update = (next: Row[]) => {
    setRows(next);
    const object = toObject(next, value);
    const emitted = Object.keys(object).length === 0 && field.schema?.is_nullable !== false ? null : object;
    setSynced(emitted);
    onChange?.(emitted);
  };
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.key.trim(), (counts.get(row.key.trim()) ?? 0) + 1);
  return (
    <div id={`field-${field.field}`} data-testid={`key-value-${field.field}`}>
      {rows.map((row, index) => (
        <Flex key={index} gap={8} style={{ marginBottom: 8 }} align="center">
          <Input
            value={row.key}
            disabled={disabled}
            placeholder={stringOption(options, 'keyPlaceholder') ?? translate('content.keyValue.key')}
            status={row.key.trim() !== '' && counts.get(row.key.trim())! > 1 ? 'warning' : undefined}
            onChange={(event) => update(rows.map((entry, at) => (at === index ? { ...entry, key: event.target.value } : entry)))}
            style={{ flex: 1 }}
            aria-label={translate('content.keyValue.key')}
          />
          <Input
            value={row.value}
            disabled={disabled}
            placeholder={stringOption(options, 'valuePlaceholder') ?? translate('content.keyValue.value')}
            onChange={(event) => update(rows.map((entry, at) => (at === index ? { ...entry, value: event.target.value } : entry)))}
            style={{ flex: 2 }}
            aria-label={translate('content.keyValue.value')}
          />
          {!disabled && <Button type="text" danger icon={<DeleteOutlined />} aria-label={translate('content.keyValue.remove')} onClick={() => update(rows.filter((_, at) => at !== index))} />}
        </Flex>
      ))}
      {[...counts].some(([key, count]) => key !== '' && count > 1) && (
        <Typography.Text type="warning" style={{ display: 'block', marginBottom: 8 }}>
          {translate('content.keyValue.duplicate')}
        </Typography.Text>
      )}
      {rows.length === 0 && disabled && <Typography.Text type="secondary">—</Typography.Text>}
      {!disabled && (
        <Button icon={<PlusOutlined />} onClick={() => setRows([...rows, { key: '', value: '' }])} data-testid={`key-value-add-${field.field}`}>
          {stringOption(options, 'addLabel') ?? translate('content.keyValue.add')}
        </Button>
      )}
    </div>
  );
}
