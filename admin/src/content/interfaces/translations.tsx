import { useTranslate } from '@refinedev/core';
import { Alert, Col, Flex, Grid, Row, Select, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { apiData } from '../../providers/http-client.ts';
import { resourcePath } from '../../providers/resource-paths.ts';
import { renderTemplate } from '../display-template.ts';
import { fieldLabel } from '../field-label.ts';
import { completeness, rowFor, withValue, type TranslationShape } from '../items/translation-rows.ts';
import { useSchema } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { InterfaceFor } from './index.tsx';
import { keyOf, labelFields, relatedTarget } from './related.ts';
import type { InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;

/**
 * A `translations` field (Directus's translations interface): one tab per item of the languages
 * collection, each with the translated fields of the junction collection and how many of them are filled,
 * and a second language beside the first to translate from. The form sends only what changed.
 */
export function TranslationsInterface({ field, value, onChange, disabled }: InterfaceProps<Item[]>) {
  const schema = useSchema();
  const translate = useTranslate();
  const { locale } = usePreferences();
  const target = relatedTarget(schema, field);
  const [languages, setLanguages] = useState<Item[] | null>(null);
  const [active, setActive] = useState<string | undefined>(undefined);
  const [beside, setBeside] = useState<string | null>(null);
  const phone = !(Grid.useBreakpoint().sm ?? true);
  const languagesCollection = target?.collection;

  useEffect(() => {
    if (!languagesCollection) return;
    apiData<Item[]>(resourcePath(languagesCollection), { query: { fields: labelFields(schema, languagesCollection), limit: -1, sort: schema.primaryKeyOf(languagesCollection) } }).then(
      (items) => setLanguages(items ?? []),
      () => setLanguages([]),
    );
    // The languages are read once per field; schema reloads do not change them.
  }, [languagesCollection]);

  const junction = target?.junction;
  const translatable = useMemo<FieldInfo[]>(() => {
    if (!junction) return [];
    return schema
      .fieldsOf(junction.collection)
      .filter((candidate) => ![junction.primaryKey, junction.field, junction.backField].includes(candidate.field) && candidate.type !== 'alias' && !candidate.meta?.hidden);
  }, [schema, junction]);

  if (!target || !junction) return <Alert type="warning" showIcon message={translate('content.relation.missing')} />;
  if (languages === null) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (languages.length === 0) return <Alert type="info" showIcon message={translate('content.translations.noLanguages', { collection: target.collection })} />;

  const shape: TranslationShape = { primaryKey: junction.primaryKey, languageField: junction.field, languageKey: target.primaryKey };
  const rows = Array.isArray(value) ? value.filter((row) => row && typeof row === 'object') : [];
  const names = translatable.map((entry) => entry.field);
  const keys = languages.map((language) => String(keyOf(language, target.primaryKey)));
  const nameOf = (key: string) => renderTemplate(target.template, languages.find((language) => String(keyOf(language, target.primaryKey)) === key), target.primaryKey) || key;
  const preferred = keys.find((key) => key === locale) ?? keys.find((key) => key.slice(0, 2) === locale.slice(0, 2)) ?? keys[0];
  const current = active && keys.includes(active) ? active : preferred!;
  const besideKey = beside && beside !== current && keys.includes(beside) ? beside : null;

  const editor = (language: string, readonly: boolean) => (
    <Flex vertical gap={12} data-testid={`translation-${language}${readonly ? '-beside' : ''}`}>
      {translatable.map((entry) => (
        <div key={entry.field}>
          <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
            {fieldLabel(entry, locale)}
          </Typography.Text>
          <InterfaceFor
            field={entry}
            options={entry.meta?.options ?? {}}
            value={rowFor(rows, language, shape)?.[entry.field] ?? null}
            onChange={(next) => onChange?.(withValue(rows, language, entry.field, next, shape))}
            disabled={disabled || readonly}
          />
        </div>
      ))}
    </Flex>
  );

  const besidePicker =
    keys.length > 1 ? (
      <Select
        size="small"
        allowClear
        style={phone ? { width: '100%', marginBottom: 8 } : { minWidth: 180 }}
        placeholder={translate('content.translations.beside')}
        value={besideKey ?? undefined}
        onChange={(next) => setBeside(next ?? null)}
        options={keys.filter((key) => key !== current).map((key) => ({ value: key, label: nameOf(key) }))}
        data-testid="translations-beside"
      />
    ) : undefined;

  return (
    <div data-testid={`translations-${field.field}`}>
      {/* On a phone the picker beside the tabs left them a sliver (one tab, cut): it goes above them there. */}
      {phone && besidePicker}
      <Tabs
        activeKey={current}
        onChange={setActive}
        size="small"
        tabBarExtraContent={phone ? undefined : besidePicker}
        items={keys.map((key) => {
          const { filled, total } = completeness(rows, key, names, shape);
          return {
            key,
            label: (
              <span data-testid={`translation-tab-${key}`}>
                {nameOf(key)}{' '}
                <Tag bordered={false} color={filled === total && total > 0 ? 'success' : filled > 0 ? 'processing' : 'default'} data-testid={`translation-progress-${key}`}>
                  {filled}/{total}
                </Tag>
              </span>
            ),
            children: besideKey && besideKey !== key ? (
              <Row gutter={24}>
                <Col xs={24} lg={12}>
                  {editor(key, false)}
                </Col>
                <Col xs={24} lg={12}>
                  <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
                    {nameOf(besideKey)}
                  </Typography.Text>
                  {editor(besideKey, true)}
                </Col>
              </Row>
            ) : (
              editor(key, false)
            ),
          };
        })}
      />
    </div>
  );
}
