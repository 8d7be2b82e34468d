import { BoldOutlined, CodeOutlined, FontSizeOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Grid, Input, Segmented, Space, Spin, theme, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { applyMarkdown, type MarkdownAction } from './markdown-actions.ts';
import { stringOption, type InterfaceProps } from './types.ts';

const MarkdownPreview = lazy(() => import('./markdown-preview.tsx'));

const TOOLS: Array<{ action: MarkdownAction; icon: ReactNode }> = [
  { action: 'heading', icon: <FontSizeOutlined /> },
  { action: 'bold', icon: <BoldOutlined /> },
  { action: 'italic', icon: <ItalicOutlined /> },
  { action: 'bulletList', icon: <UnorderedListOutlined /> },
  { action: 'numberList', icon: <OrderedListOutlined /> },
  { action: 'quote', icon: <span aria-hidden style={{ fontWeight: 700 }}>❝</span> },
  { action: 'code', icon: <CodeOutlined /> },
  { action: 'link', icon: <LinkOutlined /> },
];

type Mode = 'write' | 'preview' | 'split';

/**
 * Markdown (the API stores the source): a toolbar that writes the syntax around the selection, and a
 * rendered preview, as a tab or, on wide screens, side by side.
 */
export function MarkdownInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const wide = Grid.useBreakpoint().lg ?? false;
  const [mode, setMode] = useState<Mode>('write');
  const area = useRef<TextAreaRef>(null);
  const text = value ?? '';
  const shown: Mode = mode === 'split' && !wide ? 'write' : mode;

  const apply = (action: MarkdownAction) => {
    const element = area.current?.resizableTextArea?.textArea;
    const edit = applyMarkdown({ text, selectionStart: element?.selectionStart ?? text.length, selectionEnd: element?.selectionEnd ?? text.length }, action);
    onChange?.(edit.text === '' ? null : edit.text);
    // The new value renders first; then the caret goes back where the syntax left it.
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(edit.selectionStart, edit.selectionEnd);
    });
  };

  const editor = (
    <Input.TextArea
      ref={area}
      id={`field-${field.field}`}
      value={text}
      onChange={(event) => onChange?.(event.target.value === '' ? null : event.target.value)}
      disabled={disabled}
      placeholder={stringOption(options, 'placeholder') ?? translate('content.editor.markdownPlaceholder')}
      autoSize={{ minRows: 6, maxRows: 24 }}
      variant="borderless"
      style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}
    />
  );
  const preview = (
    <div style={{ padding: '4px 11px', minHeight: 140, overflowWrap: 'anywhere' }}>
      <Suspense fallback={<Spin size="small" />}>
        <MarkdownPreview source={text} empty={translate('content.editor.nothingToPreview')} />
      </Suspense>
    </div>
  );

  return (
    <div data-testid={`markdown-${field.field}`} style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 4, padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Space size={0} wrap>
          {TOOLS.map(({ action, icon }) => (
            <Tooltip key={action} title={translate(`content.editor.${action}`)}>
              <Button type="text" size="small" icon={icon} aria-label={translate(`content.editor.${action}`)} disabled={disabled || shown === 'preview'} onMouseDown={(event) => event.preventDefault()} onClick={() => apply(action)} data-testid={`markdown-tool-${action}`} />
            </Tooltip>
          ))}
        </Space>
        <Segmented<Mode>
          size="small"
          value={shown}
          onChange={setMode}
          options={[
            { value: 'write', label: translate('content.editor.write') },
            { value: 'preview', label: <span data-testid="markdown-show-preview">{translate('content.editor.preview')}</span> },
            ...(wide ? [{ value: 'split' as Mode, label: translate('content.editor.split') }] : []),
          ]}
        />
      </div>
      {shown === 'write' ? editor : shown === 'preview' ? preview : (
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr' }}>
          {editor}
          <div style={{ borderInlineStart: `1px solid ${token.colorBorderSecondary}` }}>{preview}</div>
        </div>
      )}
    </div>
  );
}
