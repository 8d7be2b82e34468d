/** Who is making a call: resolved once per request (or CLI run) and passed to every service. */
export interface Accountability {
  /** User id, or null for the public and for the system itself. */
  user: string | null;
  role: string | null;
  /** Admin roles, and the system, bypass permissions. */
  admin: boolean;
  /** May use the admin app (gets SPEC §6 default permissions). */
  app: boolean;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  /** Hash of the session the caller signed in with, if any. */
  session: string | null;
  /** Id of the share a share session reads through (its role's permissions, limited to the shared item). */
  share: string | null;
}

/** The caller for work the platform does itself (CLI, bootstrap): full access, no user. */
export function systemAccountability(): Accountability {
  return { user: null, role: null, admin: true, app: true, ip: null, userAgent: null, origin: null, session: null, share: null };
}

/** An anonymous caller: the public role. */
export function publicAccountability(request: Pick<Accountability, 'ip' | 'userAgent' | 'origin'>): Accountability {
  return { user: null, role: null, admin: false, app: false, session: null, share: null, ...request };
}
