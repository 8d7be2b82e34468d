import { systemAccountability, type Accountability } from '../../auth/accountability.ts';
import type { EventAccountability } from '../../events/event-names.ts';

/** Who an extension acts as, in Directus's shape (`req.accountability`, an operation's `accountability`). */
export interface DirectusAccountability {
  user?: string | null;
  role?: string | null;
  /** Directus ≥ 11 lists every role; Tessera has one role per user, the first is used when `role` is unset. */
  roles?: string[];
  admin?: boolean;
  app?: boolean;
  ip?: string | null;
  userAgent?: string | null;
  origin?: string | null;
  share?: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Tessera's caller for a Directus accountability. Null or undefined is Directus's "system" caller (its
 * services skip permission checks then): full access. Anything else is checked against its role, so an
 * extension acting for a request sees exactly what that request may see.
 */
export function toTesseraAccountability(accountability: DirectusAccountability | null | undefined): Accountability {
  if (accountability === null || accountability === undefined) return systemAccountability();
  const role = text(accountability.role) ?? (Array.isArray(accountability.roles) ? text(accountability.roles[0]) : null);
  return {
    user: text(accountability.user),
    role,
    admin: accountability.admin === true,
    app: accountability.app === true,
    ip: text(accountability.ip),
    userAgent: text(accountability.userAgent),
    origin: text(accountability.origin),
    // A Tessera accountability passed straight through keeps its session (and share scope).
    session: text((accountability as { session?: unknown }).session),
    share: text(accountability.share),
  };
}

/** The Directus shape of Tessera's caller (a request's, or an event's), for `req.accountability`, hook and operation contexts; null stays null (the system itself). */
export function toDirectusAccountability(accountability: Accountability | EventAccountability): DirectusCaller;
export function toDirectusAccountability(accountability: Accountability | EventAccountability | null | undefined): DirectusCaller | null;
export function toDirectusAccountability(accountability: Accountability | EventAccountability | null | undefined): DirectusCaller | null {
  if (!accountability) return null;
  return {
    user: accountability.user ?? null,
    role: accountability.role ?? null,
    roles: accountability.role ? [accountability.role] : [],
    admin: accountability.admin === true,
    app: 'app' in accountability && accountability.app === true,
    ip: accountability.ip ?? null,
    userAgent: accountability.userAgent ?? null,
    origin: accountability.origin ?? null,
    share: 'share' in accountability ? (accountability.share ?? null) : null,
  };
}

/** A caller as toDirectusAccountability answers it: every key present. */
export type DirectusCaller = Required<Omit<DirectusAccountability, 'share'>> & { share: string | null };
