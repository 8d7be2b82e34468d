import { InvalidPayloadError } from '../../errors.ts';
import { validateLanguageTag } from './settings-text-rules.ts';

type Payload = Record<string, unknown>;

/**
 * tessera_translations (SPEC §5): `language` is a BCP 47 tag of a known language, stored canonical
 * ("pt-br" → "pt-BR", so the admin finds it for the user's locale); `key` is text without surrounding
 * spaces (it is written after `$t:` in names and notes). One value per key and language: a unique index
 * answers a second one with RECORD_NOT_UNIQUE naming `key`.
 */
export function applyTranslationRules(payload: Payload): Payload {
  const result = { ...payload };
  if (result.language !== undefined) result.language = validateLanguageTag(result.language, 'language');
  if (result.key !== undefined) {
    if (typeof result.key !== 'string' || result.key.trim() === '' || result.key.trim() !== result.key) {
      throw new InvalidPayloadError('key must be text without spaces around it, such as "labels.publish".', { field: 'key' });
    }
  }
  return result;
}
