import Checklist from '@editorjs/checklist';
import Code from '@editorjs/code';
import Delimiter from '@editorjs/delimiter';
import type { ToolConstructable, ToolSettings } from '@editorjs/editorjs';
import Header from '@editorjs/header';
import InlineCode from '@editorjs/inline-code';
import List from '@editorjs/list';
import Paragraph from '@editorjs/paragraph';
import Quote from '@editorjs/quote';
import Raw from '@editorjs/raw';
import Table from '@editorjs/table';
import Underline from '@editorjs/underline';
import type { BlockToolName } from './block-tool-names.ts';
import { LibraryImageTool, type LibraryImageConfig } from './library-image-tool.ts';

const tool = (constructable: unknown, settings: Omit<ToolSettings, 'class'> = {}): ToolSettings => ({ class: constructable as ToolConstructable, ...settings });

/**
 * Editor.js tools under Directus's names (the names are the blocks' `type`, so data carries over both ways).
 * `list` and `nestedlist` are Editor.js's list tool, which reads the nested-list data Directus stores.
 */
export function toolsFor(names: readonly BlockToolName[], image: LibraryImageConfig): Record<string, ToolSettings> {
  const all: Record<BlockToolName, () => ToolSettings> = {
    header: () => tool(Header, { inlineToolbar: true, config: { levels: [1, 2, 3, 4, 5, 6], defaultLevel: 2 } }),
    paragraph: () => tool(Paragraph, { inlineToolbar: true }),
    nestedlist: () => tool(List, { inlineToolbar: true }),
    list: () => tool(List, { inlineToolbar: true }),
    checklist: () => tool(Checklist, { inlineToolbar: true }),
    quote: () => tool(Quote, { inlineToolbar: true }),
    code: () => tool(Code),
    image: () => tool(LibraryImageTool, { config: image }),
    table: () => tool(Table, { inlineToolbar: true }),
    delimiter: () => tool(Delimiter),
    raw: () => tool(Raw),
    underline: () => tool(Underline),
    inlinecode: () => tool(InlineCode),
  };
  return Object.fromEntries(names.map((name) => [name, all[name]()]));
}
