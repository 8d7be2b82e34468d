import { describe, expect, it } from 'vitest';
import { completeness, rowFor, translationChanges, withValue } from '../../../admin/src/content/items/translation-rows.ts';

const shape = { primaryKey: 'id', languageField: 'languages_code', languageKey: 'code' };
const fields = ['title', 'body'];
const stored = [
  { id: 1, posts_id: 7, languages_code: 'en-US', title: 'Hello', body: 'World' },
  { id: 2, posts_id: 7, languages_code: 'pt-BR', title: 'Olá', body: null },
];

describe('translation rows', () => {
  it('finds a language row whether the language is a key or an object', () => {
    expect(rowFor(stored, 'pt-BR', shape)?.id).toBe(2);
    expect(rowFor([{ id: 3, languages_code: { code: 'de-DE', name: 'Deutsch' } }], 'de-DE', shape)?.id).toBe(3);
    expect(rowFor(stored, 'de-DE', shape)).toBeUndefined();
  });

  it('sets a value on an existing row, or starts a row for a new language', () => {
    expect(withValue(stored, 'pt-BR', 'body', 'Mundo', shape)[1]).toEqual({ ...stored[1], body: 'Mundo' });
    expect(withValue(stored, 'de-DE', 'title', 'Hallo', shape)).toEqual([...stored, { languages_code: 'de-DE', title: 'Hallo' }]);
  });

  it('counts the filled fields of a language', () => {
    expect(completeness(stored, 'en-US', fields, shape)).toEqual({ filled: 2, total: 2 });
    expect(completeness(stored, 'pt-BR', fields, shape)).toEqual({ filled: 1, total: 2 });
    expect(completeness(stored, 'de-DE', fields, shape)).toEqual({ filled: 0, total: 2 });
  });

  it('sends nothing when nothing changed, and only what changed otherwise', () => {
    expect(translationChanges(stored, stored, fields, shape)).toBeNull();
    let rows = withValue(stored, 'en-US', 'title', 'Hello!', shape);
    rows = withValue(rows, 'de-DE', 'title', 'Hallo', shape);
    rows = withValue(rows, 'pt-BR', 'title', '', shape);
    expect(translationChanges(stored, rows, fields, shape)).toEqual({
      create: [{ languages_code: 'de-DE', title: 'Hallo' }],
      update: [{ id: 1, title: 'Hello!' }],
      delete: [2],
    });
  });

  it('removes a language whose values were cleared to null, as inputs clear them', () => {
    expect(translationChanges(stored, withValue(stored, 'pt-BR', 'title', null, shape), fields, shape)).toEqual({ create: [], update: [], delete: [2] });
  });

  it('does not create a row for a language whose fields were only touched and left empty', () => {
    const rows = withValue(stored, 'de-DE', 'title', '', shape);
    expect(translationChanges(stored, rows, fields, shape)).toBeNull();
  });
});
