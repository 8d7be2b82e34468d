import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, UnderlineOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Space, theme } from 'antd';
import { useEffect, useRef } from 'react';
import type { InterfaceProps } from './types.ts';

const COMMANDS = [
  { command: 'bold', icon: <BoldOutlined />, label: 'bold' },
  { command: 'italic', icon: <ItalicOutlined />, label: 'italic' },
  { command: 'underline', icon: <UnderlineOutlined />, label: 'underline' },
  { command: 'insertUnorderedList', icon: <UnorderedListOutlined />, label: 'bulletList' },
  { command: 'insertOrderedList', icon: <OrderedListOutlined />, label: 'numberList' },
];

/** Rich text stored as HTML: an editable area with a small formatting toolbar. */
export function RichTextInterface({ field, value, onChange, disabled }: InterfaceProps<string>) {
  const editor = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const translate = useTranslate();
  useEffect(() => {
    // Only write into the editor when the value changed from outside, so the caret stays where it is.
    if (editor.current && editor.current.innerHTML !== (value ?? '')) editor.current.innerHTML = value ?? '';
  }, [value]);
  const emit = () => {
    const html = editor.current?.innerHTML ?? '';
    onChange?.(html === '' || html === '<br>' ? null : html);
  };
  const run = (command: string, argument?: string) => {
    editor.current?.focus();
    document.execCommand(command, false, argument);
    emit();
  };
  return (
    <div style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer }}>
      <Space size={2} style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}`, width: '100%' }}>
        {COMMANDS.map(({ command, icon, label }) => (
          <Button key={command} type="text" size="small" icon={icon} aria-label={translate(`content.editor.${label}`)} disabled={disabled} onMouseDown={(event) => event.preventDefault()} onClick={() => run(command)} />
        ))}
        <Button
          type="text"
          size="small"
          icon={<LinkOutlined />}
          aria-label={translate('content.editor.link')}
          disabled={disabled}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            const url = window.prompt(translate('content.editor.linkUrl'));
            if (url) run('createLink', url);
          }}
        />
      </Space>
      <div
        ref={editor}
        id={`field-${field.field}`}
        role="textbox"
        aria-multiline
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={emit}
        onBlur={emit}
        style={{ minHeight: 120, padding: '8px 12px', outline: 'none' }}
      />
    </div>
  );
}
