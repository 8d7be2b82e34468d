import { useTranslate } from '@refinedev/core';
import { Card, Descriptions, Space, Tag, Typography, theme } from 'antd';
import { Brand } from '../../app/layout/brand.tsx';
import { brandColor, useProject } from '../../app/project-settings.tsx';
import { usePreferences } from '../../app/preferences.tsx';
import type { Locale } from '../../app/module.ts';
import { guessTemplate, renderTemplate } from '../display-template.ts';
import { RelatedValuesDisplay } from '../displays/related-displays.tsx';
import { fieldLabel } from '../field-label.ts';
import { templateText } from '../field-text.ts';
import { isPresentational, isToMany, relationalKind } from '../field-kinds.ts';
import { labelFields, relatedTarget, type RelatedTarget } from '../interfaces/related.ts';
import { schemaStateOf, StaticSchemaProvider, type SchemaState } from '../schema/schema-context.tsx';
import type { CollectionInfo, FieldInfo, RelationInfo } from '../schema/types.ts';
import { CellValue } from './cell-value.tsx';
import { showReadPaths } from './read-paths.ts';
import { shareCall, type ShareInfo } from './share-api.ts';

type Item = Record<string, unknown>;

/** The shared item and the schema it is shown with, both as the share reads them. */
export interface SharedItem {
  schema: SchemaState;
  collection: string;
  item: Item;
}

/** A field the page shows: readable, not hidden, holding data (relations included). */
function isShown(field: FieldInfo): boolean {
  return !field.meta?.hidden && !isPresentational(field) && (field.type !== 'alias' || relationalKind(field) !== null);
}

/** The fields of `collection` the share may read, keeping only paths whose first field is one of them. */
function readable(schema: SchemaState, collection: string, paths: string[]): string[] {
  const names = new Set(schema.fieldsOf(collection).map((field) => field.field));
  return paths.filter((path) => names.has(path.split('.')[0]!.split(':')[0]!));
}

/** The paths that read the item with its relations shown by their templates, as far as the share may read them. */
function sharedReadPaths(schema: SchemaState, collection: string): string[] {
  const labelsOf = (related: string) => readable(schema, related, labelFields(schema, related));
  const paths = ['*'];
  for (const field of schema.fieldsOf(collection).filter(isShown)) {
    const target = relatedTarget(schema, field);
    if (!target || !schema.collection(target.collection)) continue;
    if (relationalKind(field) === 'translations' && target.junction) {
      paths.push(`${field.field}.*`, ...labelsOf(target.collection).map((label) => `${field.field}.${target.junction!.field}.${label}`));
      continue;
    }
    paths.push(...showReadPaths(field, target, labelsOf, true));
  }
  return paths;
}

/**
 * Reads the shared item and what showing it needs as the share: the schema the share may see (the server
 * answers a share session with the collections, fields and relations it reaches) and the item with its
 * related items' template fields. Should a related read be refused, the item alone is shown.
 */
export async function readShared(info: ShareInfo, token: string): Promise<SharedItem> {
  const [collections, fields, relations] = await Promise.all([
    shareCall<CollectionInfo[]>('/collections', { token }),
    shareCall<FieldInfo[]>('/fields', { token }),
    shareCall<RelationInfo[]>('/relations', { token }),
  ]);
  const schema = schemaStateOf({ collections: collections ?? [], fields: fields ?? [], relations: relations ?? [] }, { loading: false, error: null, reload: async () => undefined });
  const path = `/items/${encodeURIComponent(info.collection)}/${encodeURIComponent(info.item)}`;
  const item = await shareCall<Item>(path, { token, query: { fields: sharedReadPaths(schema, info.collection) } }).catch(() => shareCall<Item>(path, { token }));
  return { schema, collection: info.collection, item: item ?? {} };
}

/** A translations value: one line per language, the language by its template, then the row's texts. */
function TranslationsValue({ rows, target, schema }: { rows: Item[]; target: RelatedTarget; schema: SchemaState }) {
  const junction = target.junction!;
  const texts = schema.fieldsOf(junction.collection).filter((field) => ['string', 'text'].includes(field.type) && ![junction.field, junction.backField, junction.primaryKey].includes(field.field));
  return (
    <Space direction="vertical" size={2}>
      {rows.map((row, index) => (
        <span key={index}>
          <Tag bordered={false}>{renderTemplate(target.template, row[junction.field], target.primaryKey)}</Tag>
          {texts.map((field) => row[field.field]).filter((text) => text !== null && text !== undefined && text !== '').map(String).join(' · ')}
        </span>
      ))}
    </Space>
  );
}

/** One field's value as the list shows it; a relation by its display or its related collection's template. */
function SharedValue({ schema, field, value, locale }: { schema: SchemaState; field: FieldInfo; value: unknown; locale: Locale }) {
  const target = relatedTarget(schema, field);
  const known = target && schema.collection(target.collection) ? target : null;
  if (known && relationalKind(field) === 'translations' && known.junction && Array.isArray(value) && !field.meta?.display) {
    return <TranslationsValue rows={value.filter((row): row is Item => Boolean(row) && typeof row === 'object')} target={known} schema={schema} />;
  }
  if (known && isToMany(field) && !field.meta?.display) return <RelatedValuesDisplay value={value} field={field} options={{}} />;
  return <CellValue field={field} value={value} target={known} locale={locale} />;
}

/** The shared item, read-only: its title from the collection's display template, each visible field by its display. */
export function SharedItemView({ shared }: { shared: SharedItem }) {
  const { locale } = usePreferences();
  const { token } = theme.useToken();
  const { project } = useProject();
  const translate = useTranslate();
  const { schema, item } = shared;
  const primaryKey = schema.primaryKeyOf(shared.collection);
  const fields = schema.fieldsOf(shared.collection);
  const template = schema.collection(shared.collection)?.meta?.display_template || guessTemplate(fields, primaryKey);
  const shown = fields.filter((field) => isShown(field) && field.field in item);
  return (
    <StaticSchemaProvider schema={schema}>
      <div style={{ minHeight: '100vh', padding: '32px 16px', background: `linear-gradient(160deg, ${brandColor(project.project_color)}22 0%, ${token.colorBgLayout} 45%)` }} data-testid="shared-page">
        <div style={{ maxWidth: 760, margin: '0 auto' }}>
          <div style={{ marginBottom: 16 }}><Brand size={32} /></div>
          <Card style={{ borderTop: `4px solid ${brandColor(project.project_color)}` }}>
            <Typography.Text type="secondary">{translate('content.shares.sharedWithYou')}</Typography.Text>
            <Typography.Title level={3} style={{ marginTop: 4, overflowWrap: 'anywhere' }} data-testid="shared-title">{renderTemplate(template, item, primaryKey, templateText(schema, shared.collection))}</Typography.Title>
            <Descriptions column={1} size="small" bordered data-testid="shared-fields">
              {shown.map((field) => (
                <Descriptions.Item key={field.field} label={fieldLabel(field, locale)}>
                  <span data-testid={`shared-field-${field.field}`} style={{ overflowWrap: 'anywhere' }}>
                    <SharedValue schema={schema} field={field} value={item[field.field]} locale={locale} />
                  </span>
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
        </div>
      </div>
    </StaticSchemaProvider>
  );
}
