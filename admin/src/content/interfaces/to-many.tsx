import { DeleteOutlined, PictureOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, Flex, List, Modal, Tag, theme } from 'antd';
import { useState } from 'react';
import { FileBrowser } from '../../files/file-browser.tsx';
import type { FileItem } from '../../files/file-info.ts';
import { FileThumbnail } from '../../files/file-thumbnail.tsx';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { renderTemplate } from '../display-template.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { CreateRelatedButton, RelatedItemDrawer } from './related-item-drawer.tsx';
import { RelatedPicker } from './related-picker.tsx';
import { FILES_COLLECTION, keyOf, relatedTarget } from './related.ts';
import { numberOption, stringOption, type InterfaceProps } from './types.ts';

type Item = Record<string, unknown>;

/** Files a files field lists per page when its `limit` option says nothing (Directus's default). */
const FILES_PER_PAGE = 15;

/**
 * One-to-many and many-to-many (files too): the related items in a list, each removable, a picker to
 * add existing ones and a drawer to create a new one with the related collection's form. o2m values are
 * related items; m2m values are junction rows whose junction field holds the related item (new rows have
 * no junction key yet). Items created here have no key until the parent is saved; the item form sends
 * them as nested creates. A files field (`files`) takes Directus's `folder` (the library opens on it and
 * uploads go there) and `limit` (files shown per page, 15).
 */
export function ToManyInterface({ field, value, onChange, disabled, options }: InterfaceProps<Item[]>) {
  const schema = useSchema();
  const translate = useTranslate();
  const permissions = usePermissionIndex();
  const { token } = theme.useToken();
  const [creating, setCreating] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  // The add picker is a fresh, empty select after each pick (antd keeps an uncontrolled selection).
  const [pickerKey, setPickerKey] = useState(0);
  const target = relatedTarget(schema, field);
  if (!target) return <Alert type="warning" showIcon message={translate('content.relation.missing')} />;
  const rows = Array.isArray(value) ? value.filter((row) => row && typeof row === 'object') : [];
  const related = (row: Item): Item | null => {
    if (!target.junction) return row;
    const inner = row[target.junction.field];
    return inner && typeof inner === 'object' ? (inner as Item) : inner === null || inner === undefined ? null : { [target.primaryKey]: inner };
  };
  const chosen = rows.map((row) => keyOf(related(row), target.primaryKey)).filter((key): key is string | number => key !== null);
  // Files are added from the file library (pick or upload there), not made in a form.
  const files = target.collection === FILES_COLLECTION;
  const canCreate = !files && Boolean(permissions?.can(target.collection, 'create') && (!target.junction || permissions.can(target.junction.collection, 'create')));
  const append = (item: Item) => onChange?.([...rows, target.junction ? { [target.junction.field]: item } : item]);
  const perPage = files ? Math.max(1, numberOption(options, 'limit') ?? FILES_PER_PAGE) : null;

  return (
    <div data-testid={`to-many-${field.field}`}>
      <List
        size="small"
        bordered
        locale={{ emptyText: translate('content.relation.none') }}
        dataSource={rows}
        pagination={perPage !== null && rows.length > perPage ? { pageSize: perPage, size: 'small', align: 'end', hideOnSinglePage: true } : false}
        style={{ marginBottom: 8, background: token.colorBgContainer }}
        renderItem={(row) => {
          // With pages, the list's own index counts from the page's first row.
          const index = rows.indexOf(row);
          const item = related(row);
          const isNew = keyOf(item, target.primaryKey) === null;
          return (
            <List.Item
              actions={
                disabled
                  ? []
                  : [<Button key="remove" type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.relation.remove')} onClick={() => onChange?.(rows.filter((_, at) => at !== index))} />]
              }
            >
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10 }}>
                {files && item && <FileThumbnail file={item as unknown as FileItem} size={40} />}
                {renderTemplate(target.template, item, target.primaryKey) || translate('content.relation.newItem')}
                {isNew && (
                  <Tag color="processing" bordered={false} style={{ marginInlineStart: 8 }}>
                    {translate('content.relation.unsaved')}
                  </Tag>
                )}
              </span>
            </List.Item>
          );
        }}
      />
      {!disabled && (
        <Flex gap={8}>
          <div style={{ flex: 1, minWidth: 0 }}>
            <RelatedPicker
              key={pickerKey}
              target={target}
              value={null}
              exclude={chosen}
              placeholder={translate('content.relation.add')}
              onPick={(item) => {
                if (item) append(item);
                setPickerKey((key) => key + 1);
              }}
            />
          </div>
          {files && (
            <Button icon={<PictureOutlined />} onClick={() => setBrowsing(true)} data-testid={`browse-files-${field.field}`}>
              {translate('content.files.library')}
            </Button>
          )}
          {canCreate && (
            <CreateRelatedButton field={field.field} onClick={() => setCreating(true)} />
          )}
        </Flex>
      )}
      {files && (
        <Modal open={browsing} onCancel={() => setBrowsing(false)} footer={null} title={translate('content.files.library')} width={800} destroyOnHidden>
          <FileBrowser
            pageSize={12}
            folder={stringOption(options, 'folder') ?? null}
            onPick={(file) => {
              setBrowsing(false);
              if (!chosen.map(String).includes(String(file.id))) append(file as unknown as Item);
            }}
          />
        </Modal>
      )}
      {canCreate && (
        <RelatedItemDrawer
          target={target}
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
