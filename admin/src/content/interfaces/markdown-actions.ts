/** What the markdown toolbar does to the text: pure, so it is tested without a browser. */

export type MarkdownAction = 'bold' | 'italic' | 'code' | 'heading' | 'bulletList' | 'numberList' | 'quote' | 'link';

export interface TextEdit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

const WRAPS: Partial<Record<MarkdownAction, string>> = { bold: '**', italic: '_', code: '`' };
const PREFIXES: Partial<Record<MarkdownAction, (index: number) => string>> = {
  heading: () => '## ',
  bulletList: () => '- ',
  numberList: (index) => `${index + 1}. `,
  quote: () => '> ',
};

/**
 * Applies a toolbar action to the selection: wraps it (bold, italic, code), prefixes each selected line
 * (heading, lists, quote; a second click takes the prefix off), or makes it a link to `url`.
 */
export function applyMarkdown(edit: TextEdit, action: MarkdownAction, url = 'https://'): TextEdit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  const selected = text.slice(start, end);
  const wrap = WRAPS[action];
  if (wrap) {
    const inner = selected || action;
    const next = `${text.slice(0, start)}${wrap}${inner}${wrap}${text.slice(end)}`;
    return { text: next, selectionStart: start + wrap.length, selectionEnd: start + wrap.length + inner.length };
  }
  if (action === 'link') {
    const label = selected || 'link';
    const next = `${text.slice(0, start)}[${label}](${url})${text.slice(end)}`;
    const urlStart = start + label.length + 3;
    return { text: next, selectionStart: urlStart, selectionEnd: urlStart + url.length };
  }
  const prefix = PREFIXES[action]!;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEndIndex = text.indexOf('\n', Math.max(end - (end > start && text[end - 1] === '\n' ? 1 : 0), start));
  const lineEnd = lineEndIndex === -1 ? text.length : lineEndIndex;
  const lines = text.slice(lineStart, lineEnd).split('\n');
  const pattern = action === 'numberList' ? /^\d+\. / : new RegExp(`^${prefix(0).replace(/[.*+?^${}()|[\]\\>#-]/g, '\\$&')}`);
  const remove = lines.every((line) => pattern.test(line));
  const changed = lines.map((line, index) => (remove ? line.replace(pattern, '') : `${prefix(index)}${line.replace(/^(#+ |[-*] |\d+\. |> )/, '')}`)).join('\n');
  const next = `${text.slice(0, lineStart)}${changed}${text.slice(lineEnd)}`;
  return { text: next, selectionStart: lineStart, selectionEnd: lineStart + changed.length };
}
