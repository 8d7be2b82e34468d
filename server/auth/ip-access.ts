import { BlockList, isIP } from 'node:net';
import { InvalidIpError } from '../errors.ts';

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
