import { afterEach, describe, expect, it } from 'vitest';
import { resolveText, setCustomTexts } from '../../../admin/src/i18n/custom-texts.ts';
import { collectionLabel } from '../../../admin/src/content/navigation.ts';
import { fieldLabel } from '../../../admin/src/content/field-label.ts';

describe('$t: texts', () => {
  afterEach(() => setCustomTexts([]));

  it('leaves plain text alone and resolves $t:key in the locale, then its language, then shows the key', () => {
    setCustomTexts([
      { key: 'collections.news', language: 'pt-BR', value: 'Notícias' },
      { key: 'collections.news', language: 'en-US', value: 'News' },
      { key: 'notes.slug', language: 'pt-PT', value: 'Parte do endereço' },
    ]);
    expect(resolveText('Plain', 'pt-BR')).toBe('Plain');
    expect(resolveText('$t:collections.news', 'pt-BR')).toBe('Notícias');
    expect(resolveText('$t:collections.news', 'en-US')).toBe('News');
    expect(resolveText('$t:notes.slug', 'pt-BR')).toBe('Parte do endereço');
    expect(resolveText('$t:notes.missing', 'pt-BR')).toBe('notes.missing');
    expect(resolveText(null, 'pt-BR')).toBeNull();
  });

  it('applies to collection and field names', () => {
    setCustomTexts([{ key: 'fields.title', language: 'pt-BR', value: 'Título' }, { key: 'collections.news', language: 'pt-BR', value: 'Notícias' }]);
    const news = { collection: 'news', meta: { translations: [{ language: 'pt-BR', translation: '$t:collections.news' }] } } as Parameters<typeof collectionLabel>[0];
    expect(collectionLabel(news, 'pt-BR')).toBe('Notícias');
    const title = { collection: 'news', field: 'title', type: 'string', meta: { translations: [{ language: 'pt-BR', translation: '$t:fields.title' }] } } as unknown as Parameters<typeof fieldLabel>[0];
    expect(fieldLabel(title, 'pt-BR')).toBe('Título');
    expect(fieldLabel(title, 'en-US')).toBe('Title');
  });
});
