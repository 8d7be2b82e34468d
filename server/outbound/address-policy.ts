import ipaddr from 'ipaddr.js';

/** Hosts and CIDRs that may be reached although they are loopback, private, link-local or metadata addresses. */
export interface OutboundAllowList {
  hosts: ReadonlySet<string>;
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** Parses OUTBOUND_ALLOWED_HOSTS entries: host names, IP addresses, or CIDRs (`10.0.0.0/8`). */
export function parseAllowList(entries: readonly string[]): OutboundAllowList {
  const hosts = new Set<string>();
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/^\[|\]$/g, '');
    if (!entry) continue;
    if (entry.includes('/') && ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry);
  }
  return { hosts, ranges };
}

/** The address as IPv4 when it is an IPv4-mapped IPv6 one (::ffff:127.0.0.1 is loopback too). */
function normalize(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/**
 * Why an address may not be called, or null when it may: only public unicast addresses pass, unless
 * the allow-list names the host or a range holding the address. Cloud metadata endpoints
 * (169.254.169.254, fd00:ec2::254) are link-local or unique-local, so they are refused with them.
 */
export function refusedAddress(address: string, hostname: string, allow: OutboundAllowList): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = normalize(address);
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (allow.hosts.has(hostname.toLowerCase())) return null;
  if (allow.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base as never, bits))) return null;
  return `${address} is a ${range} address (allow it with OUTBOUND_ALLOWED_HOSTS)`;
}
