import { DeleteOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, Flex, List, Select, Tag, theme } from 'antd';
import { useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { collectionLabel } from '../navigation.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { anyCollectionOf, anyRow, anyRowLabel, isAnyTarget } from './many-to-any-rows.ts';
import { CreateRelatedButton, RelatedItemDrawer } from './related-item-drawer.tsx';
import { RelatedPicker } from './related-picker.tsx';
import { keyOf, relatedTarget } from './related.ts';
import type { InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;

/**
 * Many-to-any (`list-m2a`, Directus's options `enableSelect`, `enableCreate`, `allowDuplicates`): junction
 * rows each pointing at an item of one of the allowed collections. Adding one is two steps: the collection,
 * then an existing item (searched with that collection's template) or a new one made in its form. New
 * rows are saved with the parent, in its transaction.
 */
export function ManyToAnyInterface({ field, value, onChange, disabled, options }: InterfaceProps<Item[]>) {
  const schema = useSchema();
  const translate = useTranslate();
  const { locale } = usePreferences();
  const permissions = usePermissionIndex();
  const { token } = theme.useToken();
  const [collection, setCollection] = useState<string | undefined>(undefined);
  const [creating, setCreating] = useState(false);
  const [pickerKey, setPickerKey] = useState(0);
  const target = relatedTarget(schema, field);
  if (!isAnyTarget(target) || target.any.allowed.length === 0) return <Alert type="warning" showIcon message={translate('content.relation.missing')} />;
  const rows = Array.isArray(value) ? value.filter((row): row is Item => Boolean(row) && typeof row === 'object') : [];
  const chosen = target.any.allowed.find((entry) => entry.collection === collection) ?? null;
  const enableSelect = options.enableSelect !== false;
  const canCreate = options.enableCreate !== false && Boolean(chosen && permissions?.can(chosen.collection, 'create') && permissions.can(target.collection, 'create'));
  // Items of the chosen collection already listed (unless duplicates are allowed).
  const taken = options.allowDuplicates
    ? []
    : rows.flatMap((row) => (chosen && anyCollectionOf(row, target)?.collection === chosen.collection ? [keyOf(row[target.any.itemField], chosen.primaryKey)] : [])).filter((key): key is string | number => key !== null);
  const labelOf = (name: string) => {
    const info = schema.collection(name);
    return info ? collectionLabel(info, locale, 'singular') : name;
  };
  const append = (item: Item) => chosen && onChange?.([...rows, anyRow(target, chosen.collection, item)]);

  return (
    <div data-testid={`many-to-any-${field.field}`}>
      <List
        size="small"
        bordered
        locale={{ emptyText: translate('content.relation.none') }}
        dataSource={rows}
        style={{ marginBottom: 8, background: token.colorBgContainer }}
        renderItem={(row, index) => {
          const isNew = row[target.primaryKey] === undefined || row[target.primaryKey] === null;
          return (
            <List.Item
              actions={disabled ? [] : [<Button key="remove" type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.relation.remove')} onClick={() => onChange?.(rows.filter((_, at) => at !== index))} />]}
            >
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                <Tag bordered={false}>{labelOf(String(row[target.any.collectionField] ?? ''))}</Tag>
                {anyRowLabel(row, target) || translate('content.relation.newItem')}
                {isNew && (
                  <Tag color="processing" bordered={false}>
                    {translate('content.relation.unsaved')}
                  </Tag>
                )}
              </span>
            </List.Item>
          );
        }}
      />
      {!disabled && (enableSelect || options.enableCreate !== false) && (
        <Flex gap={8}>
          <Select
            style={{ width: 200 }}
            value={collection}
            onChange={setCollection}
            placeholder={translate('content.m2a.collection')}
            options={target.any.allowed.map((entry) => ({ value: entry.collection, label: labelOf(entry.collection) }))}
            data-testid={`m2a-collection-${field.field}`}
          />
          {chosen && enableSelect && (
            <div style={{ flex: 1, minWidth: 0 }} data-testid={`m2a-item-${field.field}`}>
              <RelatedPicker
                key={`${chosen.collection}-${pickerKey}`}
                target={chosen}
                value={null}
                exclude={taken}
                placeholder={translate('content.relation.add')}
                onPick={(item) => {
                  if (item) append(item);
                  setPickerKey((key) => key + 1);
                }}
              />
            </div>
          )}
          {canCreate && (
            <CreateRelatedButton field={field.field} onClick={() => setCreating(true)} />
          )}
        </Flex>
      )}
      {canCreate && chosen && (
        <RelatedItemDrawer
          target={chosen}
          open={creating}
          onClose={() => setCreating(false)}
          onCreate={(item) => {
            setCreating(false);
            append(item);
          }}
        />
      )}
    </div>
  );
}
