import { EditOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Typography } from 'antd';
import { createContext, useContext, type ReactNode } from 'react';
import type { CollabUser } from './collab-socket.ts';
import { memberColor } from './presence-avatars.tsx';
import type { ItemPresence } from './use-item-presence.ts';

/** What the fields of an open item need of collaborative editing. */
export interface CollabFields {
  presence: ItemPresence;
  /** Fields edited here that someone else saved differently meanwhile. */
  conflicts: ReadonlySet<string>;
}

const CollabFieldsContext = createContext<CollabFields | null>(null);

/** Gives the form's fields their presence (item-edit-page.tsx); without it, fields are plain. */
export const CollabFieldsProvider = CollabFieldsContext.Provider;

/** The other member editing `field`, who locks it for this user; null when it is free. */
export function useFieldLock(field: string): CollabUser | null {
  return useContext(CollabFieldsContext)?.presence.lockOf(field) ?? null;
}

/**
 * One field of the form inside collaborative editing: focusing anything in it tells the room this user
 * edits the field (focus events bubble from any interface, as in Directus); another member's lock shows
 * who holds it (the field itself is read-only meanwhile, see item-fields.tsx); a conflict says so.
 */
export function CollabField({ field, lock, children }: { field: string; lock: CollabUser | null; children: ReactNode }) {
  const collab = useContext(CollabFieldsContext);
  const translate = useTranslate();
  if (!collab) return <>{children}</>;
  const color = lock ? memberColor(lock) : undefined;
  return (
    <div
      data-testid={`collab-field-${field}`}
      data-locked={lock ? 'true' : undefined}
      style={lock ? { boxShadow: `-3px 0 0 ${color}`, paddingLeft: 6 } : undefined}
      onFocus={() => {
        if (!lock) collab.presence.focus(field);
      }}
      onBlur={(event) => {
        // Moving within the field (a date picker's two inputs, a select's search box) keeps it.
        if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
        if (!lock) collab.presence.focus(null);
      }}
    >
      {lock && (
        <Typography.Text style={{ color, fontSize: 12 }} data-testid={`field-lock-${field}`}>
          <EditOutlined /> {translate('content.collab.editing', { name: lock.name ?? translate('content.collab.someone') })}
        </Typography.Text>
      )}
      {children}
      {collab.conflicts.has(field) && (
        <Typography.Text type="warning" style={{ fontSize: 12, display: 'block', marginTop: -16, marginBottom: 16 }} data-testid={`field-conflict-${field}`}>
          <WarningOutlined /> {translate('content.collab.conflict')}
        </Typography.Text>
      )}
    </div>
  );
}
