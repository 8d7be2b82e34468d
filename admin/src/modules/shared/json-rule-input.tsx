import { useTranslation } from '@refinedev/core';
import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { parseFilter, parseJsonObject } from './json-rules.ts';

/** A form item holding JSON text: a filter (item rule, validation) or any object (presets). */
export function JsonRuleInput({ name, label, kind, extra, placeholder }: { name: string; label: ReactNode; kind: 'filter' | 'object'; extra?: ReactNode; placeholder?: string }) {
  const { translate } = useTranslation();
  return (
    <Form.Item
      name={name}
      label={label}
      extra={extra}
      rules={[
        {
          validator: async (_, value: string | undefined) => {
            const result = kind === 'filter' ? parseFilter(value) : parseJsonObject(value);
            if (result.ok) return;
            const at = 'path' in result && result.path ? ` (${result.path})` : '';
            throw new Error(`${translate(result.error)}${at}`);
          },
        },
      ]}
    >
      <Input.TextArea autoSize={{ minRows: 3, maxRows: 14 }} spellCheck={false} placeholder={placeholder} style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }} />
    </Form.Item>
  );
}
