import { describe, expect, it } from 'vitest';
import { applyMarkdown, type TextEdit } from '../../../admin/src/content/interfaces/markdown-actions.ts';

/** `text` with the selection marked by [ and ]. */
function at(marked: string): TextEdit {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  return { text: marked.replace('[', '').replace(']', ''), selectionStart: start, selectionEnd: end };
}
const show = (edit: TextEdit) => `${edit.text.slice(0, edit.selectionStart)}[${edit.text.slice(edit.selectionStart, edit.selectionEnd)}]${edit.text.slice(edit.selectionEnd)}`;

describe('markdown toolbar actions', () => {
  it('wraps the selection, or a placeholder, keeping it selected', () => {
    expect(show(applyMarkdown(at('a [word] here'), 'bold'))).toBe('a **[word]** here');
    expect(show(applyMarkdown(at('a [word] here'), 'italic'))).toBe('a _[word]_ here');
    expect(show(applyMarkdown(at('x[]'), 'code'))).toBe('x`[code]`');
  });

  it('prefixes every selected line, numbering lists, and takes the prefix off on a second click', () => {
    expect(show(applyMarkdown(at('intro\n[one\ntwo]\nend'), 'bulletList'))).toBe('intro\n[- one\n- two]\nend');
    expect(show(applyMarkdown(at('[one\ntwo]'), 'numberList'))).toBe('[1. one\n2. two]');
    expect(show(applyMarkdown(at('ti[]tle'), 'heading'))).toBe('[## title]');
    expect(show(applyMarkdown(at('[- one\n- two]'), 'bulletList'))).toBe('[one\ntwo]');
    expect(show(applyMarkdown(at('[## title]'), 'heading'))).toBe('[title]');
    expect(show(applyMarkdown(at('[- one]'), 'quote'))).toBe('[> one]');
  });

  it('makes a link with the address selected, ready to type over', () => {
    expect(show(applyMarkdown(at('see [docs]'), 'link'))).toBe('see [docs]([https://])');
    expect(show(applyMarkdown(at('[]'), 'link', 'https://example.test'))).toBe('[link]([https://example.test])');
  });
});
