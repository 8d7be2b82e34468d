/** User statuses (SPEC §4). */
export const USER_STATUSES = ['draft', 'invited', 'unverified', 'active', 'suspended', 'archived'] as const;
/** A user's status. */
export type UserStatus = (typeof USER_STATUSES)[number];

/** Appearances a user can pick; null means "sync with the project" (SPEC §4). */
export const APPEARANCES = ['auto', 'light', 'dark'] as const;

/** Tag colours of statuses in lists. */
export const STATUS_COLOURS: Readonly<Record<UserStatus, string>> = {
  draft: 'default',
  invited: 'blue',
  unverified: 'gold',
  active: 'green',
  suspended: 'orange',
  archived: 'default',
};

/** A user as the users screens read it. */
export interface UserRecord {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  title: string | null;
  status: UserStatus;
  role: { id: string; name: string } | string | null;
  language: string | null;
  appearance: 'auto' | 'light' | 'dark' | null;
  email_notifications: boolean;
  last_access: string | null;
  /** `default` (a password) or the name of the sign-in provider the user is linked to. */
  provider?: string | null;
  external_identifier?: string | null;
}

/** Fields the user list reads. */
export const USER_LIST_FIELDS = ['id', 'first_name', 'last_name', 'email', 'title', 'status', 'role.id', 'role.name', 'last_access'];

/** A user's display name: first and last name, else the e-mail address. */
export function displayName(user: Pick<UserRecord, 'first_name' | 'last_name' | 'email'>): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return name || user.email || '—';
}

/** Fields a cleared select leaves undefined that mean "no value" (null): language → project default, appearance → sync. */
const CLEARABLE = ['language', 'appearance', 'role', 'title', 'first_name', 'last_name'];

/** The users PATCH body from the edit form: blank password left out, cleared choices as null. */
export function toUserPayload(values: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'password' && (value === undefined || value === null || value === '')) continue;
    payload[key] = value === undefined && CLEARABLE.includes(key) ? null : value;
  }
  return payload;
}

/** Splits what an administrator types as invitation addresses: commas, semicolons, spaces or lines. */
export function parseEmailList(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((entry) => entry.trim().toLowerCase()).filter(Boolean))];
}

/** A loose e-mail check for the invitation form (the server checks exactly). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
