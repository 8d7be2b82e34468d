import { useTranslation } from '@refinedev/core';
import { Input, Typography } from 'antd';
import { useState } from 'react';

function toText(value: unknown): string {
  return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
}

/** An option holding any JSON value, edited as text: the value changes only when the text parses (blank: none). */
export function OptionJsonInput({ value, onChange }: { value?: unknown; onChange?: (value: unknown) => void }) {
  const { translate } = useTranslation();
  const [text, setText] = useState(() => toText(value));
  const [invalid, setInvalid] = useState(false);
  return (
    <>
      <Input.TextArea
        value={text}
        status={invalid ? 'error' : undefined}
        autoSize={{ minRows: 2, maxRows: 10 }}
        style={{ fontFamily: 'monospace' }}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (next.trim() === '') {
            setInvalid(false);
            onChange?.(null);
            return;
          }
          try {
            onChange?.(JSON.parse(next));
            setInvalid(false);
          } catch {
            setInvalid(true);
          }
        }}
      />
      {invalid ? <Typography.Text type="danger">{translate('dataModel.options.invalidJson')}</Typography.Text> : null}
    </>
  );
}
