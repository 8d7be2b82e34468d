import { useTranslate } from '@refinedev/core';
import { Avatar, Tooltip } from 'antd';
import type { CollabUser } from './collab-socket.ts';

/** Directus's avatar colours by name, as the server assigns them. */
const COLORS: Record<string, string> = { purple: '#6644ff', pink: '#e35169', blue: '#2f80ed', green: '#2ecda7', yellow: '#ffc23b', orange: '#ff8a3d', red: '#e35169' };

/** The colour a member is drawn in. */
export function memberColor(user: CollabUser): string {
  return COLORS[user.color] ?? '#8c8c8c';
}

/** A member's initials (their name's, else "?"). */
function initials(user: CollabUser): string {
  const words = (user.name ?? '').split(/\s+/).filter(Boolean);
  return words.length === 0 ? '?' : words.slice(0, 2).map((word) => word[0]!.toUpperCase()).join('');
}

/** Avatars of the other people on an item (on its form, and on its row in a list); nothing when nobody else is there. */
export function PresenceAvatars({ users, size = 'default', testId }: { users: CollabUser[]; size?: 'small' | 'default'; testId?: string }) {
  const translate = useTranslate();
  if (users.length === 0) return null;
  return (
    <Tooltip title={`${translate('content.collab.here')}: ${users.map((user) => user.name ?? translate('content.collab.someone')).join(', ')}`}>
      <span data-testid={testId ?? 'presence-avatars'}>
        <Avatar.Group size={size} max={{ count: 4 }}>
          {users.map((user) => (
            <Avatar key={user.connection} style={{ backgroundColor: memberColor(user) }} aria-label={user.name ?? translate('content.collab.someone')}>
              {initials(user)}
            </Avatar>
          ))}
        </Avatar.Group>
      </span>
    </Tooltip>
  );
}
