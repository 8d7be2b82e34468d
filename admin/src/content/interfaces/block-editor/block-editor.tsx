import EditorJS, { type OutputData } from '@editorjs/editorjs';
import { useTranslate } from '@refinedev/core';
import { theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { libraryImageSrc, LibraryImageModal } from '../library-image-modal.tsx';
import { stringOption, type InterfaceProps } from '../types.ts';
import { blockDataOf, sanitizeBlocks, type BlockData } from './block-data.ts';
import { editorJsMessages } from './editor-js-i18n.ts';
import { blockToolsOf } from './block-tool-names.ts';
import { toolsFor } from './block-tools.ts';
import type { LibraryImageData } from './library-image-tool.ts';

const FONTS: Record<string, string> = { serif: 'Georgia, "Times New Roman", serif', monospace: 'ui-monospace, SFMono-Regular, Menlo, monospace' };

const BLOCK_CSS = `
.tessera-block-editor .codex-editor__redactor { padding-bottom: 48px !important; }
.tessera-block-editor .ce-block__content, .tessera-block-editor .ce-toolbar__content { max-width: none; margin-inline: 48px 12px; }
.tessera-image-block img { border-radius: 4px; }
.tessera-image-caption:empty::before { content: attr(data-placeholder); opacity: 0.5; }
`;

/** The stored form of Editor.js's output: null without blocks. */
function stored(output: OutputData): BlockData | null {
  return output.blocks.length > 0 ? { time: output.time, blocks: output.blocks as BlockData['blocks'], version: output.version } : null;
}

/**
 * The block editor (`input-block-editor`): Editor.js with the tools of `options.tools`, its output stored
 * as Editor.js's JSON (`{ time, blocks: [{ id, type, data }], version }`, as Directus stores it); images
 * come from the file library. Its own chunk: it loads the first time a block field is shown.
 */
export default function BlockEditor({ field, value, onChange, disabled, options }: InterfaceProps<unknown>) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const holder = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorJS | null>(null);
  const sent = useRef<unknown>(value);
  // The blocks on screen as JSON, to tell Editor.js's own redraws from edits.
  const shown = useRef('[]');
  const latest = useRef({ value, onChange, translate });
  latest.current = { value, onChange, translate };
  const [picking, setPicking] = useState<((file: LibraryImageData['file'] | null) => void) | null>(null);
  const tools = blockToolsOf(options.tools).join(',');
  const folder = stringOption(options, 'folder');
  const placeholder = stringOption(options, 'placeholder');

  // One Editor.js per set of tools: it cannot change its tools once made.
  useEffect(() => {
    const initial = blockDataOf(latest.current.value);
    const data = initial ? sanitizeBlocks(initial) : undefined;
    shown.current = JSON.stringify(data?.blocks ?? []);
    const report = (output: OutputData) => {
      const next = stored(output);
      // Editor.js also reports its own redraws (a stored value rendered): only real edits reach the form.
      const blocks = JSON.stringify(next?.blocks ?? []);
      if (blocks === shown.current) return;
      shown.current = blocks;
      sent.current = next;
      latest.current.onChange?.(next);
    };
    const instance: EditorJS = new EditorJS({
      holder: holder.current as HTMLDivElement,
      data,
      tools: toolsFor(tools.split(',').filter(Boolean) as ReturnType<typeof blockToolsOf>, {
        pick: () => new Promise((resolve) => setPicking(() => resolve)),
        // A picked picture reaches the form at once: Editor.js batches its onChange for 400 ms, and a save
        // clicked within them sent the blocks without the picture.
        picked: () => void instance.save().then(report),
        labels: { choose: latest.current.translate('content.blocks.chooseImage'), caption: latest.current.translate('content.blocks.caption') },
      }),
      placeholder,
      minHeight: 60,
      i18n: { messages: editorJsMessages(latest.current.translate) },
      onChange: async (api) => report(await api.saver.save()),
    });
    editor.current = instance;
    return () => {
      editor.current = null;
      void instance.isReady.then(() => instance.destroy(), () => undefined);
    };
  }, [tools, placeholder]);

  // A value set from outside (the item loaded, the form reset) is drawn again; the editor's own changes are not.
  useEffect(() => {
    const instance = editor.current;
    if (!instance || value === sent.current) return;
    sent.current = value;
    const found = blockDataOf(value);
    const data = found ? sanitizeBlocks(found) : null;
    shown.current = JSON.stringify(data?.blocks ?? []);
    void instance.isReady.then(() => (data ? instance.render(data) : instance.clear()));
  }, [value]);

  useEffect(() => {
    const instance = editor.current;
    void instance?.isReady.then(() => {
      if (instance.readOnly.isEnabled !== Boolean(disabled)) void instance.readOnly.toggle(Boolean(disabled));
    });
  }, [disabled, tools, placeholder]);

  const bordered = options.bordered !== false;
  return (
    <div
      id={`field-${field.field}`}
      data-testid={`block-editor-${field.field}`}
      className="tessera-block-editor"
      style={{
        border: bordered ? `1px solid ${token.colorBorder}` : undefined,
        borderRadius: token.borderRadius,
        background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
        fontFamily: FONTS[stringOption(options, 'font') ?? ''] ?? token.fontFamily,
        paddingTop: 8,
      }}
    >
      <style>{BLOCK_CSS}</style>
      <div ref={holder} />
      <LibraryImageModal
        open={picking !== null}
        folder={folder}
        onClose={() => {
          picking?.(null);
          setPicking(null);
        }}
        onPick={(file) => {
          picking?.({ url: libraryImageSrc(file.id), fileId: file.id, width: file.width ?? null, height: file.height ?? null });
          setPicking(null);
        }}
      />
    </div>
  );
}
