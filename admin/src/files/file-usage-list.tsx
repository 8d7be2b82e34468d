import { useTranslate } from '@refinedev/core';
import { Card, List, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useCollectionName } from '../app/system-labels.ts';
import { usePreferences } from '../app/preferences.tsx';
import { renderTemplate } from '../content/display-template.ts';
import { fieldLabel } from '../content/field-label.ts';
import { labelFields, templateOf } from '../content/interfaces/related.ts';
import { useSchema } from '../content/schema/schema-context.tsx';
import { apiRequest } from '../providers/http-client.ts';
import { fileReferences } from './file-usage.ts';

/** Items listed per file field; the rest is counted. */
const PER_FIELD = 10;

interface UsageGroup {
  collection: string;
  field: string;
  items: Array<{ key: string; label: string }>;
  total: number;
}

/**
 * "Where it is used": the items of each file field and gallery that use this file, as the caller may read
 * them (one bounded request per field; collections the caller cannot read are left out).
 */
export function FileUsageList({ fileId }: { fileId: string }) {
  const translate = useTranslate();
  const schema = useSchema();
  const collectionName = useCollectionName();
  const { locale } = usePreferences();
  const references = useMemo(() => fileReferences(schema.relations), [schema.relations]);
  const [groups, setGroups] = useState<UsageGroup[] | null>(null);

  useEffect(() => {
    let current = true;
    void Promise.all(
      references.map(async (reference): Promise<UsageGroup | null> => {
        const primaryKey = schema.primaryKeyOf(reference.collection);
        try {
          const body = await apiRequest<{ data: Record<string, unknown>[]; meta?: { filter_count?: number } }>(`/items/${encodeURIComponent(reference.collection)}`, {
            query: { fields: labelFields(schema, reference.collection), filter: reference.filter(fileId), limit: PER_FIELD, meta: 'filter_count' },
          });
          const rows = body?.data ?? [];
          if (rows.length === 0) return null;
          const template = templateOf(schema, reference.collection);
          return {
            collection: reference.collection,
            field: reference.field,
            items: rows.map((row) => ({ key: String(row[primaryKey]), label: renderTemplate(template, row, primaryKey) })),
            total: Number(body?.meta?.filter_count ?? rows.length),
          };
        } catch {
          return null;
        }
      }),
    ).then((found) => current && setGroups(found.filter((group): group is UsageGroup => group !== null)));
    return () => {
      current = false;
    };
  }, [references, schema, fileId]);

  return (
    <Card size="small" title={translate('files.usage.title')} loading={groups === null} data-testid="file-usage">
      {groups && groups.length === 0 && <Typography.Text type="secondary">{translate('files.usage.none')}</Typography.Text>}
      {groups?.map((group) => {
        const field = schema.fieldsOf(group.collection).find((entry) => entry.field === group.field);
        return (
          <div key={`${group.collection}.${group.field}`} style={{ marginBottom: 8 }} data-testid={`file-usage-${group.collection}-${group.field}`}>
            <Typography.Text strong>
              {collectionName(group.collection, schema.collection(group.collection))}
            </Typography.Text>
            <Typography.Text type="secondary"> · {field ? fieldLabel(field, locale) : group.field}</Typography.Text>
            <List
              size="small"
              dataSource={group.items}
              renderItem={(item) => (
                <List.Item style={{ paddingInline: 0 }}>
                  <Link to={`/content/${encodeURIComponent(group.collection)}/${encodeURIComponent(item.key)}`}>{item.label}</Link>
                </List.Item>
              )}
            />
            {group.total > group.items.length && <Typography.Text type="secondary">{translate('files.usage.more', { count: group.total - group.items.length })}</Typography.Text>}
          </div>
        );
      })}
    </Card>
  );
}
