import { EyeOutlined, InboxOutlined, RollbackOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apiData, apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { resourcePath } from '../../providers/resource-paths.ts';
import type { RelatedTarget } from '../interfaces/related.ts';
import type { FieldInfo } from '../schema/types.ts';
import { archiveValue, copiedFields, copyPayload, copyReadFields, isArchived } from './item-copy.ts';

type Item = Record<string, unknown>;

/** Archive / Unarchive: sets the collection's archive field to its archive or unarchive value. */
export function ArchiveButton({ collection, id, item, field, archive, unarchive, onDone }: { collection: string; id: string; item: Item | null; field: FieldInfo; archive: string | null; unarchive: string | null; onDone(): void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const archived = isArchived(item, field, archive);
  const toggle = async () => {
    setBusy(true);
    try {
      await apiRequest(`${resourcePath(collection)}/${encodeURIComponent(id)}`, { method: 'PATCH', body: { [field.field]: archiveValue(field, archived ? unarchive : archive) }, query: { fields: 'id' } });
      message.success(translate(archived ? 'content.item.unarchived' : 'content.item.archived'));
      onDone();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popconfirm title={translate(archived ? 'content.item.confirmUnarchive' : 'content.item.confirmArchive')} onConfirm={toggle}>
      <Button icon={archived ? <RollbackOutlined /> : <InboxOutlined />} loading={busy} data-testid={archived ? 'item-unarchive' : 'item-archive'}>
        {translate(archived ? 'content.item.unarchive' : 'content.item.archive')}
      </Button>
    </Popconfirm>
  );
}

/**
 * Save as copy: a new item with the original's `item_duplication_fields` (relations created anew) and the
 * form's unsaved edits on top; `beforeOpen` runs once the copy holds the edits, then the copy opens.
 */
export function useSaveAsCopy({ collection, id, fields, duplication, targetOf, edits, beforeOpen }: { collection: string; id: string; fields: FieldInfo[]; duplication: string[] | null | undefined; targetOf(field: FieldInfo): RelatedTarget | null; edits(): Item; beforeOpen(): void }): { copy(): Promise<void>; busy: boolean } {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    setBusy(true);
    try {
      const chosen = copiedFields(fields, duplication);
      const original = await apiData<Item>(`${resourcePath(collection)}/${encodeURIComponent(id)}`, { query: { fields: copyReadFields(chosen, targetOf, duplication).join(',') } });
      const created = await apiData<Item>(resourcePath(collection), { method: 'POST', body: { ...copyPayload(original ?? {}, chosen, targetOf), ...edits() } });
      const key = fields.find((field) => field.schema?.is_primary_key)?.field ?? 'id';
      message.success(translate('content.item.copied'));
      beforeOpen();
      navigate(`/content/${collection}/${encodeURIComponent(String(created?.[key]))}`);
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };
  return { copy, busy };
}

/** The Preview switch of a collection with a `preview_url`. */
export function PreviewToggle({ open, onToggle }: { open: boolean; onToggle(): void }) {
  const translate = useTranslate();
  return (
    <Button icon={<EyeOutlined />} type={open ? 'primary' : 'default'} ghost={open} onClick={onToggle} data-testid="item-preview-toggle">
      {translate('content.item.preview')}
    </Button>
  );
}
