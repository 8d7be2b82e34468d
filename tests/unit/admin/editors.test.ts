import { describe, expect, it } from 'vitest';
import { blockDataOf } from '../../../admin/src/content/interfaces/block-editor/block-data.ts';
import { blockToolsOf } from '../../../admin/src/content/interfaces/block-editor/block-tool-names.ts';
import { codeLanguage } from '../../../admin/src/content/interfaces/code/code-languages.ts';
import { findJsonProblem } from '../../../admin/src/content/interfaces/code/json-problem.ts';
import { withoutDefaults } from '../../../admin/src/content/interfaces/interface-options.ts';
import { isSafeHref } from '../../../admin/src/content/interfaces/rich-text/safe-href.ts';

describe('the code interface’s JSON lint', () => {
  it('accepts JSON and blank text', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\u00e9\\n", true, false, null] ', '"só"', '0', '']) expect(findJsonProblem(text)).toBeNull();
  });

  it('points at the first character that cannot be JSON, with its line and column', () => {
    expect(findJsonProblem('{ "porcoes": 4, }')).toEqual({ offset: 16, line: 1, column: 17, character: '}' });
    expect(findJsonProblem('{\n  "a": tru }')).toEqual({ offset: 12, line: 2, column: 11, character: ' ' });
    expect(findJsonProblem("{'a': 1}")).toMatchObject({ offset: 1, character: "'" });
    expect(findJsonProblem('[01]')).toMatchObject({ offset: 2, character: '1' });
    expect(findJsonProblem('{"a": 1} x')).toMatchObject({ offset: 9, character: 'x' });
    expect(findJsonProblem('"tab\there"')).toMatchObject({ offset: 4, character: '\t' });
    expect(findJsonProblem('"\\x"')).toMatchObject({ offset: 2, character: 'x' });
  });

  it('says where a text ends too early', () => {
    expect(findJsonProblem('{\n  "porcoes": ')).toEqual({ offset: 15, line: 2, column: 14, character: null });
    expect(findJsonProblem('[1, 2')).toEqual({ offset: 5, line: 1, column: 6, character: null });
  });
});

describe('editor options', () => {
  it('reads a language in Directus’s names, any case, or an alias', () => {
    expect(codeLanguage('JSON')).toBe('JSON');
    expect(codeLanguage('json')).toBe('JSON');
    expect(codeLanguage('htmlmixed')).toBe('htmlmixed');
    expect(codeLanguage('html')).toBe('htmlmixed');
    expect(codeLanguage('TypeScript')).toBe('javascript');
    expect(codeLanguage('cobol')).toBeNull();
    expect(codeLanguage(undefined)).toBeNull();
  });

  it('keeps the block tools it has, and Directus’s defaults when none are set', () => {
    expect(blockToolsOf(['embed', 'quote', 'header'])).toEqual(['header', 'quote']);
    expect(blockToolsOf(undefined)).toEqual(['header', 'paragraph', 'nestedlist', 'checklist', 'quote', 'code', 'image', 'underline']);
  });

  it('stores a toolbar only when it differs from the default, order included', () => {
    const defaults = ['bold', 'italic', 'underline', 'h1', 'h2', 'h3', 'numlist', 'bullist', 'removeformat', 'blockquote', 'customLink', 'customImage', 'customMedia', 'hr', 'code', 'fullscreen'];
    expect(withoutDefaults('input-rich-text-html', { toolbar: defaults })).toEqual({});
    expect(withoutDefaults('input-rich-text-html', { toolbar: ['bold'] })).toEqual({ toolbar: ['bold'] });
  });

  it('lets links be web, mail, phone and relative addresses only', () => {
    for (const href of ['https://example.test', 'mailto:a@b.test', 'tel:+5511', '/receitas', '#topo', 'example.test/a']) expect(isSafeHref(href)).toBe(true);
    for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x']) expect(isSafeHref(href)).toBe(false);
  });
});

describe('block data', () => {
  it('reads Editor.js output (a JSON string too) and nothing without blocks', () => {
    const data = { time: 1, version: '2.31.0', blocks: [{ id: 'a', type: 'paragraph', data: { text: 'Oi' } }] };
    expect(blockDataOf(data)).toEqual(data);
    expect(blockDataOf(JSON.stringify(data))).toEqual(data);
    expect(blockDataOf({ blocks: [] })).toBeNull();
    expect(blockDataOf({ blocks: [{ type: 'paragraph' }] })).toBeNull();
    expect(blockDataOf('not json')).toBeNull();
    expect(blockDataOf(null)).toBeNull();
  });
});
