import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  BoldOutlined,
  ClearOutlined,
  CodeOutlined,
  DisconnectOutlined,
  FullscreenOutlined,
  ItalicOutlined,
  LineOutlined,
  LinkOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  SelectOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { Editor } from '@tiptap/react';
import type { ReactNode } from 'react';
import { DEFAULT_TOOLBAR, type RICH_TEXT_TOOLBAR } from './toolbar-names.ts';

/** What a button does beyond an editor command: open a dialog or change the view. */
export type ToolbarAction = 'link' | 'image' | 'source' | 'fullscreen';

/** One toolbar button under Directus's name for it (`options.toolbar`). */
export interface ToolbarItem {
  icon: ReactNode;
  run?: (editor: Editor) => void;
  active?: (editor: Editor) => boolean;
  action?: ToolbarAction;
}

const text = (label: string) => <span style={{ fontWeight: 600, fontSize: 12 }}>{label}</span>;
const chain = (editor: Editor) => editor.chain().focus();
type Level = 1 | 2 | 3 | 4 | 5 | 6;
const heading = (level: Level): ToolbarItem => ({ icon: text(`H${level}`), run: (editor) => chain(editor).toggleHeading({ level }).run(), active: (editor) => editor.isActive('heading', { level }) });
const align = (side: 'left' | 'center' | 'right' | 'justify', icon: ReactNode): ToolbarItem => ({ icon, run: (editor) => chain(editor).setTextAlign(side).run(), active: (editor) => editor.isActive({ textAlign: side }) });

/** The buttons the rich text editor has; Directus names it has no equivalent for (fonts, colours, media, tables) are skipped. */
export const TOOLBAR_ITEMS: Readonly<Record<(typeof RICH_TEXT_TOOLBAR)[number], ToolbarItem>> = {
  undo: { icon: <UndoOutlined />, run: (editor) => chain(editor).undo().run() },
  redo: { icon: <RedoOutlined />, run: (editor) => chain(editor).redo().run() },
  bold: { icon: <BoldOutlined />, run: (editor) => chain(editor).toggleBold().run(), active: (editor) => editor.isActive('bold') },
  italic: { icon: <ItalicOutlined />, run: (editor) => chain(editor).toggleItalic().run(), active: (editor) => editor.isActive('italic') },
  underline: { icon: <UnderlineOutlined />, run: (editor) => chain(editor).toggleUnderline().run(), active: (editor) => editor.isActive('underline') },
  strikethrough: { icon: <StrikethroughOutlined />, run: (editor) => chain(editor).toggleStrike().run(), active: (editor) => editor.isActive('strike') },
  subscript: { icon: text('x₂'), run: (editor) => chain(editor).toggleSubscript().run(), active: (editor) => editor.isActive('subscript') },
  superscript: { icon: text('x²'), run: (editor) => chain(editor).toggleSuperscript().run(), active: (editor) => editor.isActive('superscript') },
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  alignleft: align('left', <AlignLeftOutlined />),
  aligncenter: align('center', <AlignCenterOutlined />),
  alignright: align('right', <AlignRightOutlined />),
  alignjustify: align('justify', <MenuOutlined />),
  indent: { icon: <MenuUnfoldOutlined />, run: (editor) => chain(editor).sinkListItem('listItem').run() },
  outdent: { icon: <MenuFoldOutlined />, run: (editor) => chain(editor).liftListItem('listItem').run() },
  numlist: { icon: <OrderedListOutlined />, run: (editor) => chain(editor).toggleOrderedList().run(), active: (editor) => editor.isActive('orderedList') },
  bullist: { icon: <UnorderedListOutlined />, run: (editor) => chain(editor).toggleBulletList().run(), active: (editor) => editor.isActive('bulletList') },
  removeformat: { icon: <ClearOutlined />, run: (editor) => chain(editor).unsetAllMarks().clearNodes().run() },
  selectall: { icon: <SelectOutlined />, run: (editor) => chain(editor).selectAll().run() },
  blockquote: { icon: text('❝'), run: (editor) => chain(editor).toggleBlockquote().run(), active: (editor) => editor.isActive('blockquote') },
  customLink: { icon: <LinkOutlined />, action: 'link', active: (editor) => editor.isActive('link') },
  unlink: { icon: <DisconnectOutlined />, run: (editor) => chain(editor).extendMarkRange('link').unsetLink().run() },
  customImage: { icon: <PictureOutlined />, action: 'image' },
  hr: { icon: <LineOutlined />, run: (editor) => chain(editor).setHorizontalRule().run() },
  code: { icon: <CodeOutlined />, action: 'source' },
  fullscreen: { icon: <FullscreenOutlined />, action: 'fullscreen' },
};

/** The toolbar an `options.toolbar` asks for, in its order, without the names the editor does not have. */
export function toolbarOf(option: unknown): Array<keyof typeof TOOLBAR_ITEMS> {
  const names: readonly unknown[] = Array.isArray(option) ? option : DEFAULT_TOOLBAR;
  return names.filter((name): name is keyof typeof TOOLBAR_ITEMS => typeof name === 'string' && Object.hasOwn(TOOLBAR_ITEMS, name));
}
