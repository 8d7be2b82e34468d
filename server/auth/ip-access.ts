import { BlockList, isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { InvalidIpError } from '../errors.ts';
import { assertTfaSetUp, isTfaSetupRoute } from './tfa-enforcement.ts';

/** The entries of a role's ip_access (stored comma-separated); empty means "from anywhere". */
export function parseIpAccess(value: string | string[] | null | undefined): string[] {
  const list = Array.isArray(value) ? value : (value ?? '').split(',');
  return list.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is checked as `10.0.0.1`. */
function canonicalIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/** Adds an address (`10.0.0.1`, `::1`) or a range in CIDR notation (`10.0.0.0/8`); ignores anything else. */
function addEntry(list: BlockList, entry: string): void {
  const [address = '', prefix] = entry.split('/');
  const family = isIP(canonicalIp(address));
  if (family === 0) return;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) list.addAddress(canonicalIp(address), type);
  else if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)) list.addSubnet(canonicalIp(address), Number(prefix), type);
}

/** True when `ip` may use a role whose ip_access is `allowed`: an empty list allows every address. */
export function isIpAllowed(allowed: string | string[] | null | undefined, ip: string | null): boolean {
  const entries = parseIpAccess(allowed);
  if (entries.length === 0) return true;
  const caller = ip ? canonicalIp(ip) : '';
  const family = isIP(caller);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of entries) addEntry(list, entry);
  return list.check(caller, family === 4 ? 'ipv4' : 'ipv6');
}

/** Throws 401 INVALID_IP when the role does not allow `ip`. */
export function assertIpAllowed(allowed: string | string[] | null | undefined, ip: string | null): void {
  if (!isIpAllowed(allowed, ip)) throw new InvalidIpError();
}

/** The access restrictions a role carries beyond permissions. */
export interface RoleRestrictions {
  ip_access: string | null;
  enforce_tfa: boolean;
}

/**
 * Role restrictions by role id, kept for `ttlMs`: every request with a token is checked, and a lookup per
 * request would cost more than verifying the token. Sign-in always reads the role afresh; a change to a
 * role reaches tokens already handed out within `ttlMs`.
 */
export function createRoleRestrictionsCache(db: () => Kysely<any>, ttlMs = 5_000, now: () => number = Date.now) {
  const entries = new Map<string, { value: RoleRestrictions | null; expires: number }>();
  return {
    async get(roleId: string): Promise<RoleRestrictions | null> {
      const cached = entries.get(roleId);
      if (cached && cached.expires > now()) return cached.value;
      const row = await db().selectFrom('tessera_roles').select(['ip_access', 'enforce_tfa']).where('id', '=', roleId).executeTakeFirst();
      const value = row ? { ip_access: row.ip_access ?? null, enforce_tfa: row.enforce_tfa === true } : null;
      if (entries.size >= 1_000) entries.clear();
      entries.set(roleId, { value, expires: now() + ttlMs });
      return value;
    },
  };
}

/**
 * Checks a signed-in caller against their role: the IP address must be in ip_access (401 INVALID_IP), and
 * with enforce_tfa, only TFA setup routes are open until the user has TFA (403 TFA_SETUP_REQUIRED).
 */
export function roleAccessGuard(db: () => Kysely<any>) {
  const roles = createRoleRestrictionsCache(db);
  return async (caller: { user: string | null; role: string | null; ip: string | null }, method: string, path: string): Promise<void> => {
    if (!caller.user || !caller.role) return;
    const restrictions = await roles.get(caller.role);
    if (!restrictions) return;
    assertIpAllowed(restrictions.ip_access, caller.ip);
    if (restrictions.enforce_tfa && !isTfaSetupRoute(method, path)) await assertTfaSetUp(db(), caller.user);
  };
}
