import { useTranslate } from '@refinedev/core';
import { App, type FormInstance } from 'antd';
import { useMemo } from 'react';
import type { CollabFields } from './collab-field.tsx';
import type { CollabUser } from './collab-socket.ts';
import { useItemPresence } from './use-item-presence.ts';
import { useLiveMerge } from './use-live-merge.ts';

type Item = Record<string, unknown>;

interface Options {
  collection: string;
  /** The item's key; null for a singleton. */
  item: string | null;
  version: string | null;
  enabled: boolean;
  form: FormInstance | undefined;
  /** The item as the form loaded it. */
  loaded: Item | null;
  /** Reads the item again (the form resets to it) and answers it. */
  reload: () => Promise<Item | null | undefined>;
  /** The item was deleted, or this user may no longer read it. */
  onGone: () => void;
  /** True from this form's own save until the read after it: the room's `save` then is this one. */
  ownSaveRunning: () => boolean;
  /** The version (ETag) the form's item was read at. */
  itemVersion: string | null;
  /** A merge kept edits of this user that clash with a save: `base` is the version those edits were made on. */
  onConflictsFrom: (base: string) => void;
}

/**
 * Collaborative editing of an open item: presence in its room, field locks, and other users' saves
 * merged into the form (use-live-merge.ts). Call after useForm.
 */
export function useItemCollab({ collection, item, version, enabled, form, loaded, reload, onGone, ownSaveRunning, itemVersion, onConflictsFrom }: Options): { fields: CollabFields; others: CollabUser[] } {
  const translate = useTranslate();
  const { message } = App.useApp();
  const { merge, conflicts } = useLiveMerge(form, loaded, reload, { busy: ownSaveRunning, version: itemVersion, onConflictsFrom });
  const presence = useItemPresence(collection, item, version, enabled, merge, () => {
    message.warning(translate('content.collab.deleted'));
    onGone();
  });
  const fields = useMemo(() => ({ presence, conflicts }), [presence, conflicts]);
  return { fields, others: presence.others };
}
