import type { I18nDictionary } from '@editorjs/editorjs';
import { EDITOR_JS_TEXTS } from './block-editor-messages.ts';

/** Editor.js's dictionary in the user's language (`translate` reads our catalogue); both list tools share the list's texts. */
export function editorJsMessages(translate: (key: string) => string): I18nDictionary {
  const dictionary: Record<string, unknown> = {};
  const sections = { ...EDITOR_JS_TEXTS, 'tools.nestedlist': EDITOR_JS_TEXTS['tools.list'] as Record<string, string> };
  for (const [path, texts] of Object.entries(sections)) {
    let section = dictionary;
    for (const part of path.split('.')) section = (section[part] ??= {}) as Record<string, unknown>;
    for (const [english, key] of Object.entries(texts)) section[english] = translate(`content.blocks.${key}`);
  }
  return dictionary as I18nDictionary;
}
