import { randomBytes } from 'node:crypto';
import { signAccessToken } from '../auth/access-token.ts';
import { hashSessionToken } from '../auth/sessions.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/passwords.ts';
import { deriveKey, requireSecret } from '../auth/secret-keys.ts';
import { ForbiddenError, InvalidCredentialsError } from '../errors.ts';
import type { ServiceContext } from './service-context.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What anyone holding a share's link may know about it before authenticating. */
export interface ShareInfo {
  id: string;
  collection: string;
  item: string;
  /** Whether a password is needed (never the password). */
  password: boolean;
  date_start: Date | null;
  date_end: Date | null;
  times_used: number;
  max_uses: number | null;
}

/** A share session's access token: read-only access to the shared item under the share's role. */
export interface ShareTokens {
  access_token: string;
  /** Lifetime in milliseconds. */
  expires: number;
}

interface ShareRow {
  id: string;
  collection: string;
  item: string;
  role: string | null;
  password: string | null;
  date_start: Date | null;
  date_end: Date | null;
  times_used: number;
  max_uses: number | null;
}

/** Why a share cannot be used now, or null when it can. */
function unusable(share: ShareRow, now = Date.now()): string | null {
  if (share.date_start && new Date(share.date_start).getTime() > now) return 'This share is not active yet.';
  if (share.date_end && new Date(share.date_end).getTime() <= now) return 'This share has expired.';
  if (share.max_uses !== null && share.times_used >= share.max_uses) return 'This share has been used up.';
  return null;
}

/** Share links (SPEC.md §3, §5): public information and share sessions. */
export class SharesService {
  readonly #context: ServiceContext;

  constructor(context: ServiceContext) {
    this.#context = context;
  }

  async #find(id: string): Promise<ShareRow> {
    if (!UUID.test(id)) throw new ForbiddenError();
    const share = await this.#context.db
      .selectFrom('tessera_shares')
      .select(['id', 'collection', 'item', 'role', 'password', 'date_start', 'date_end', 'times_used', 'max_uses'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!share) throw new ForbiddenError();
    return share as ShareRow;
  }

  /** Public facts about a usable share; unknown, expired or used-up shares are FORBIDDEN. */
  async info(id: string): Promise<ShareInfo> {
    const share = await this.#find(id);
    const reason = unusable(share);
    if (reason) throw new ForbiddenError(reason);
    const { password, role: _role, ...rest } = share;
    return { ...rest, item: String(share.item), password: password !== null && password !== '' };
  }

  /**
   * Starts a share session: checks dates, uses and the password, counts the use (atomically, so two
   * concurrent uses cannot both take the last one) and signs an access token carrying the share.
   */
  async authenticate(id: string, password: string | undefined): Promise<ShareTokens> {
    const { db, config, accountability } = this.#context;
    const share = await this.#find(id);
    if (share.password) {
      if (!password || !(await verifyPassword(share.password, password))) throw new InvalidCredentialsError('Wrong share password.');
    } else if (password) {
      await verifyAgainstDummy(password, config.auth.hash);
    }
    const reason = unusable(share);
    if (reason) throw new ForbiddenError(reason);
    return db.transaction().execute(async (trx) => {
      const counted = await trx
        .updateTable('tessera_shares')
        .set((eb) => ({ times_used: eb('times_used', '+', 1) }))
        .where('id', '=', share.id)
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('times_used', '<', eb.ref('max_uses'))]))
        .returning('id')
        .executeTakeFirst();
      if (!counted) throw new ForbiddenError('This share has been used up.');
      const token = randomBytes(32).toString('base64url');
      const session = hashSessionToken(token);
      const ttl = config.auth.accessTokenTtlMs;
      const end = share.date_end ? new Date(share.date_end).getTime() : Number.POSITIVE_INFINITY;
      await trx
        .insertInto('tessera_sessions')
        .values({ token: session, user: null, share: share.id, expires: new Date(Math.min(Date.now() + ttl, end)), ip: accountability.ip, user_agent: accountability.userAgent, origin: accountability.origin })
        .execute();
      const claims = { id: null, role: share.role, app_access: false, admin_access: false, session, share: share.id };
      return { access_token: await signAccessToken(claims, deriveKey(requireSecret(config), 'access-token'), ttl), expires: ttl };
    });
  }
}
