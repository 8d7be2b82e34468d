import { FullscreenExitOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Subscript } from '@tiptap/extension-subscript';
import { Superscript } from '@tiptap/extension-superscript';
import { Image } from '@tiptap/extension-image';
import { TextAlign } from '@tiptap/extension-text-align';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Button, Input, Space, theme, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { EditorLoading } from '../lazy-interface.tsx';
import { libraryImageSrc, LibraryImageModal } from '../library-image-modal.tsx';
import { numberOption, stringOption, type InterfaceProps } from '../types.ts';
import { LinkModal } from './link-modal.tsx';
import { sanitizeHtml } from './sanitize-html.ts';
import { TOOLBAR_ITEMS, toolbarOf, type ToolbarAction } from './toolbar-items.tsx';

const FONTS: Record<string, string> = { serif: 'Georgia, "Times New Roman", serif', monospace: 'ui-monospace, SFMono-Regular, Menlo, monospace' };

const CONTENT_CSS = `
.tessera-rich-text { outline: none; min-height: 160px; padding: 8px 12px; }
.tessera-rich-text img { max-width: 100%; height: auto; }
.tessera-rich-text img.ProseMirror-selectednode { outline: 2px solid #1677ff; }
.tessera-rich-text blockquote { margin-inline: 0; padding-inline-start: 12px; border-inline-start: 3px solid rgba(128, 128, 128, 0.4); }
.tessera-rich-text p { margin: 0 0 0.6em; }
`;

/** Stored HTML as the editor sends it: sanitised, without the empty paragraph Tiptap keeps at the end, null when there is no text and no image. */
function htmlOf(editor: Editor): string | null {
  return editor.isEmpty ? null : sanitizeHtml(editor.getHTML()).replace(/(<p><\/p>)+$/, '');
}

/**
 * Rich text stored as HTML (`input-rich-text-html`): Tiptap (ProseMirror) with the toolbar `options.toolbar`
 * names, images from the file library stored as `/assets/<id>`, a view of the HTML source, and
 * sanitised HTML in and out. Its own chunk: it loads the first time a rich text field is shown.
 */
export default function RichTextEditor(props: InterfaceProps<string>) {
  const { field, value, onChange, disabled } = props;
  const sent = useRef<string | null | undefined>(value);
  const send = (html: string | null) => {
    sent.current = html;
    onChange?.(html);
  };

  // Made once the field has mounted, not while rendering: an editor made during a render is destroyed by
  // Tiptap when the mount takes over a millisecond to follow (a busy machine, a time-sliced render of the
  // chunk that just arrived), and the field crashed reading the destroyed editor's schema.
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({ heading: { levels: [1, 2, 3, 4, 5, 6] }, link: { openOnClick: false, autolink: true, defaultProtocol: 'https', HTMLAttributes: { target: null, rel: 'noopener noreferrer' } } }),
      Image,
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
      Subscript,
      Superscript,
    ],
    content: sanitizeHtml(value ?? ''),
    editable: !disabled,
    editorProps: { attributes: { id: `field-${field.field}`, class: 'tessera-rich-text', role: 'textbox', 'aria-multiline': 'true', 'aria-label': field.field } },
    onUpdate: ({ editor: changed }) => send(htmlOf(changed)),
  });
  if (!editor) return <EditorLoading />;
  return <RichTextFrame {...props} editor={editor} sent={sent} send={send} />;
}

/** The toolbar, the editor or its HTML source, the characters left and the dialogs, around a mounted editor. */
function RichTextFrame({ field, value, disabled, options, editor, sent, send }: InterfaceProps<string> & { editor: Editor; sent: RefObject<string | null | undefined>; send: (html: string | null) => void }) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const [dialog, setDialog] = useState<'link' | 'image' | null>(null);
  const [source, setSource] = useState<string | null>(null);
  const [fullscreen, setFullscreen] = useState(false);

  // A value set from outside (the item loaded, the form reset) replaces the content; typing never comes back here.
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    editor.commands.setContent(sanitizeHtml(value ?? ''), { emitUpdate: false });
  }, [editor, value, sent]);
  useEffect(() => editor.setEditable(!disabled), [editor, disabled]);

  const toolbar = toolbarOf(options.toolbar);
  const active = useEditorState({ editor, selector: ({ editor: current }) => toolbar.map((name) => TOOLBAR_ITEMS[name].active?.(current) ?? false) });
  const textLength = useEditorState({ editor, selector: ({ editor: current }) => current.getText().length });
  const softLength = numberOption(options, 'softLength');

  const act = (action: ToolbarAction) => {
    if (action === 'fullscreen') return setFullscreen((on) => !on);
    if (action !== 'source') return setDialog(action);
    if (source === null) return setSource(editor.getHTML());
    editor.commands.setContent(sanitizeHtml(source), { emitUpdate: false });
    send(htmlOf(editor));
    setSource(null);
  };

  const frame: CSSProperties = fullscreen
    ? { position: 'fixed', inset: 0, zIndex: 1000, display: 'flex', flexDirection: 'column', background: token.colorBgContainer }
    : { border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer };

  return (
    <div data-testid={`rich-text-${field.field}`} style={frame}>
      <style>{CONTENT_CSS}</style>
      {!disabled && (
        <Space size={0} wrap style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}`, width: '100%' }}>
          {toolbar.map((name, index) => {
            const item = TOOLBAR_ITEMS[name];
            const label = translate(`content.richText.${name}`);
            const pressed = item.action === 'source' ? source !== null : item.action === 'fullscreen' ? fullscreen : Boolean(active[index]);
            return (
              <Tooltip key={name} title={label}>
                <Button
                  type={pressed ? 'primary' : 'text'}
                  ghost={pressed}
                  size="small"
                  icon={item.action === 'fullscreen' && fullscreen ? <FullscreenExitOutlined /> : item.icon}
                  aria-label={label}
                  aria-pressed={pressed}
                  data-testid={`rich-text-tool-${name}`}
                  disabled={source !== null && item.action !== 'source' && item.action !== 'fullscreen'}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => (item.action ? act(item.action) : item.run?.(editor))}
                />
              </Tooltip>
            );
          })}
        </Space>
      )}
      <div style={{ flex: 1, overflow: 'auto', fontFamily: FONTS[stringOption(options, 'font') ?? ''] ?? token.fontFamily }}>
        {source !== null ? (
          <Input.TextArea
            value={source}
            onChange={(event) => {
              setSource(event.target.value);
              send(event.target.value.trim() === '' ? null : sanitizeHtml(event.target.value));
            }}
            autoSize={{ minRows: 8 }}
            variant="borderless"
            aria-label={translate('content.richText.code')}
            data-testid="rich-text-source"
            style={{ fontFamily: FONTS.monospace, fontSize: 13 }}
          />
        ) : (
          <EditorContent editor={editor} />
        )}
      </div>
      {softLength !== undefined && (
        <Typography.Text type={textLength > softLength ? 'danger' : 'secondary'} style={{ display: 'block', padding: '0 12px 4px', fontSize: 12, textAlign: 'end' }} data-testid="rich-text-remaining">
          {translate('content.richText.remaining', { count: softLength - textLength })}
        </Typography.Text>
      )}
      <LinkModal
        open={dialog === 'link'}
        href={editor.getAttributes('link').href as string | undefined}
        onClose={() => setDialog(null)}
        onSave={(href, newTab) => {
          setDialog(null);
          const range = editor.chain().focus().extendMarkRange('link');
          if (!href) return void range.unsetLink().run();
          range.setLink({ href, target: newTab ? '_blank' : null }).run();
        }}
      />
      <LibraryImageModal
        open={dialog === 'image'}
        folder={stringOption(options, 'folder')}
        onClose={() => setDialog(null)}
        onPick={(file) => {
          setDialog(null);
          editor.chain().focus().setImage({ src: libraryImageSrc(file.id, stringOption(options, 'imageToken')), alt: file.title ?? file.filename_download ?? '' }).run();
        }}
      />
    </div>
  );
}
