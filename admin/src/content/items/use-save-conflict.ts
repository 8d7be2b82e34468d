import { useUpdate, useTranslate, type BaseKey, type MetaQuery } from '@refinedev/core';
import { useRef, useState } from 'react';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { useItemVersion } from '../../providers/item-versions.ts';
import type { TesseraMeta } from '../../providers/data-provider.ts';

/** A save refused because someone else saved the item first (412): what each side has. */
export interface SaveConflict {
  /** The changes this form tried to save. */
  mine: Record<string, unknown>;
  /** The item as it is now, as far as this user may read it. */
  theirs: Record<string, unknown>;
  /** The item's current ETag: a merged save sends it as If-Match. */
  etag: string;
}

interface StaleItem {
  etag?: unknown;
  item?: unknown;
}

/** Which item the form edits: Refine's resource and id, the API path its ETag is kept under, the form's read meta. */
export interface EditedItem {
  resource: string;
  id: BaseKey | undefined;
  /** Null while creating: a new item has no version yet. */
  path: string | null;
  meta: TesseraMeta;
  /** After a merged save: read the item again. */
  onSaved(): void;
  /** A merged save failed (refused again, or any other error). */
  onFailed?(): void;
}

/**
 * The item form's side of "no lost updates" (docs/collaboration.md): the ETag to send with a save (the one the
 * item was read with), the conflict to show when the server answers 412 because the item changed since, and
 * the merged save (sent with the item's current ETag, so a third writer in between is caught again).
 */
export function useSaveConflict(edited: EditedItem) {
  const translate = useTranslate();
  const ifMatch = useItemVersion(edited.path);
  const saving = useRef<Record<string, unknown> | null>(null);
  const [conflict, setConflict] = useState<SaveConflict | null>(null);
  const { mutate: update, mutation } = useUpdate();

  /** True when `error` is such a refusal; the conflict is then shown (and no other error message is needed). */
  const caught = (error: ApiHttpError | undefined): boolean => {
    const stale = (error?.extensions?.conflicts as StaleItem[] | undefined)?.[0];
    if (error?.statusCode !== 412 || !saving.current || typeof stale?.etag !== 'string') return false;
    setConflict({ mine: saving.current, theirs: (stale.item ?? {}) as Record<string, unknown>, etag: stale.etag });
    return true;
  };

  const saveMerged = (payload: Record<string, unknown>, etag: string) => {
    saving.current = payload;
    update(
      {
        resource: edited.resource,
        id: edited.id ?? '',
        values: payload,
        meta: { ...edited.meta, ifMatch: etag } as MetaQuery,
        successNotification: { type: 'success', message: translate('notifications.editSuccess') },
        errorNotification: (error) => (caught(error as ApiHttpError) ? false : { type: 'error', message: translate('notifications.editError'), description: error?.message }),
      },
      {
        onSuccess: () => {
          setConflict(null);
          edited.onSaved();
        },
        onError: () => edited.onFailed?.(),
      },
    );
  };

  return {
    /** useForm's mutationMeta: the If-Match of the form's own save. */
    mutationMeta: { ifMatch } satisfies TesseraMeta,
    /** Notes the changes about to be saved, to compare them with theirs if the save is refused. */
    beforeSave(payload: Record<string, unknown>) {
      saving.current = payload;
    },
    caught,
    /** Props of SaveConflictDialog. */
    dialog: { conflict, saving: mutation.isPending, onCancel: () => setConflict(null), onSave: saveMerged },
  };
}
