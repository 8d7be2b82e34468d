import { describe, expect, it } from 'vitest';
import { parseFilter, parseJsonObject, toJsonText } from '../../../../admin/src/modules/shared/json-rules.ts';

describe('rule JSON', () => {
  it('reads blank and {} as no rule', () => {
    expect(parseJsonObject('')).toEqual({ ok: true, value: null });
    expect(parseJsonObject('  {} ')).toEqual({ ok: true, value: null });
    expect(parseFilter(undefined)).toEqual({ ok: true, value: null });
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(parseJsonObject('{status:')).toEqual({ ok: false, error: 'shared.json.invalid' });
    expect(parseJsonObject('[1]')).toEqual({ ok: false, error: 'shared.json.notObject' });
    expect(parseJsonObject('"x"')).toEqual({ ok: false, error: 'shared.json.notObject' });
  });

  it('accepts filters of the query language: fields, relations, logical groups, functions, dynamic values', () => {
    const filter = {
      _or: [{ status: { _eq: 'published' } }, { owner: { _eq: '$CURRENT_USER' } }],
      author: { name: { _starts_with: 'Ada' } },
      comments: { _some: { approved: { _eq: false } } },
      'year(date)': { _gte: 2024 },
      'item:block_text': { text: { _contains: 'x' } },
    };
    expect(parseFilter(JSON.stringify(filter))).toEqual({ ok: true, value: filter });
  });

  it('names the path of a malformed filter', () => {
    expect(parseFilter('{"status":{"_equals":"x"}}')).toEqual({ ok: false, error: 'shared.filter.unknownOperator', path: 'status._equals' });
    expect(parseFilter('{"_eq":1}')).toEqual({ ok: false, error: 'shared.filter.operatorWithoutField', path: '_eq' });
    expect(parseFilter('{"_and":{}}')).toEqual({ ok: false, error: 'shared.filter.logicalList', path: '_and' });
    expect(parseFilter('{"_or":[{"title":"x"}]}')).toEqual({ ok: false, error: 'shared.filter.notObject', path: '_or[0].title' });
    expect(parseFilter('{"bad name":{"_eq":1}}')).toEqual({ ok: false, error: 'shared.filter.badField', path: 'bad name' });
    expect(parseFilter('{"title":{}}')).toEqual({ ok: false, error: 'shared.filter.empty', path: 'title' });
  });

  it('prints rules for the editor, blank for none', () => {
    expect(toJsonText(null)).toBe('');
    expect(toJsonText({})).toBe('');
    expect(toJsonText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
