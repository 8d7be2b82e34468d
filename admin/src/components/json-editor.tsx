import { Input, Typography } from 'antd';
import { useEffect, useState } from 'react';

/** Props of the JSON editor: a value (any JSON) and its change; `null` when the text is empty. */
export interface JsonEditorProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled?: boolean;
  id?: string;
  placeholder?: string;
  minRows?: number;
}

function format(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

/**
 * A JSON text editor: shows the value formatted, reports parsed values as they become valid, and says
 * what is wrong while the text is not JSON (the last valid value stays in the form meanwhile).
 */
export function JsonEditor({ value, onChange, disabled, id, placeholder, minRows = 4 }: JsonEditorProps) {
  const [text, setText] = useState(format(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Follow outside changes, but not the echo of what the user is typing.
    setText((current) => {
      try {
        if (current.trim() !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(value)) return current;
      } catch {
        // The current text is invalid: the value changed from outside.
      }
      return format(value);
    });
  }, [value]);
  return (
    <>
      <Input.TextArea
        id={id}
        value={text}
        disabled={disabled}
        placeholder={placeholder ?? '{ }'}
        autoSize={{ minRows, maxRows: 24 }}
        spellCheck={false}
        status={error ? 'error' : undefined}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (next.trim() === '') {
            setError(null);
            onChange?.(null);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(next);
            setError(null);
            onChange?.(parsed);
          } catch (failure) {
            setError((failure as Error).message);
          }
        }}
      />
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {error}
        </Typography.Text>
      )}
    </>
  );
}
