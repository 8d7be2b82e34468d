import { Space, Typography } from 'antd';
import { usePreferences } from '../../app/preferences.tsx';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import type { DisplayProps } from '../../extensions/kinds.ts';
import { renderTemplate } from '../display-template.ts';
import { relatedTarget } from '../interfaces/related.ts';
import { stringOption } from '../interfaces/types.ts';
import { collectionLabel } from '../navigation.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { orderTranslations } from './translation-order.ts';

type Item = Record<string, unknown>;
const EMPTY = <Typography.Text type="secondary">—</Typography.Text>;

/** The language a translation row is in: its language field's key (or the related language item's). */
function languageOf(row: Item, languageField: string, languageKey: string): string | null {
  const language = row[languageField];
  const key = language && typeof language === 'object' ? (language as Item)[languageKey] : language;
  return key === null || key === undefined ? null : String(key);
}

/**
 * `translations`: one translation of the item by `template` (fields of the translation row; else its first
 * translated text), in the user's language when there is one (`userLanguage`), else `defaultLanguage`,
 * else the first; the languages it has are its tooltip.
 */
export function TranslationsDisplay({ value, field, options }: DisplayProps) {
  const schema = useSchema();
  const { locale } = usePreferences();
  const target = relatedTarget(schema, field);
  const rows = Array.isArray(value) ? (value.filter((row) => row && typeof row === 'object') as Item[]) : [];
  if (!target?.junction || rows.length === 0) return EMPTY;
  const junction = target.junction;
  const languageField = stringOption(options, 'languageField') ?? junction.field;
  const language = (row: Item) => languageOf(row, languageField, target.primaryKey);
  const ordered = orderTranslations(rows, language, [options.userLanguage === false ? undefined : locale, stringOption(options, 'defaultLanguage')]);
  const keys = new Set([junction.primaryKey, junction.field, junction.backField]);
  const template = stringOption(options, 'template') ?? `{{${schema.fieldsOf(junction.collection).find((candidate) => !keys.has(candidate.field) && ['string', 'text'].includes(candidate.type))?.field ?? junction.primaryKey}}}`;
  const shown = ordered.find((row) => renderTemplate(template, row, junction.primaryKey) !== '') ?? ordered[0]!;
  return (
    <span title={ordered.map(language).filter(Boolean).join(', ')} data-testid="display-translations" data-language={language(shown) ?? ''}>
      {renderTemplate(template, shown, junction.primaryKey) || EMPTY}
    </span>
  );
}

/** `collection`: a collection's name as the admin shows it (its translation in the user's language), with its `icon`. */
export function CollectionDisplay({ value, options }: DisplayProps) {
  const schema = useSchema();
  const { locale } = usePreferences();
  if (typeof value !== 'string' || value === '') return EMPTY;
  const collection = schema.collection(value);
  const name = collection ? collectionLabel(collection, locale) : value;
  return (
    <Space size={6} data-testid="display-collection">
      {options.icon === true && <CollectionIcon name={collection?.meta?.icon ?? null} color={collection?.meta?.color} />}
      <span>{name}</span>
    </Space>
  );
}
