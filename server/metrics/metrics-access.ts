import { createHash, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';
import type { Config } from '../config/index.ts';
import { ForbiddenError } from '../errors.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Token comparisons take the same time whatever the token: both sides are hashed to one length first. */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The address as IPv4 when it is an IPv4-mapped IPv6 one (a dual-stack socket reports ::ffff:10.0.0.5). */
function parseAddress(text: string): Address | null {
  if (!ipaddr.isValid(text)) return null;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/**
 * Who may read /metrics: a caller sending one of METRICS_TOKENS (as `Bearer` or, as Directus clients do,
 * `Metrics`), or one connecting from METRICS_ALLOWED_IPS. With neither set nobody may: metrics name
 * routes, collections' traffic and queue contents, which are not for the public.
 */
export function metricsAccess(settings: Config['metrics']): (ctx: Context) => void {
  const tokens = settings.tokens.map(digest);
  const ranges = settings.allowedIps.map((entry): [Address, number] => {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = parseAddress(entry)!;
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  });

  const tokenAllowed = (ctx: Context): boolean => {
    const match = /^(?:bearer|metrics)\s+(\S+)$/i.exec(ctx.get('Authorization'));
    if (!match) return false;
    const given = digest(match[1]!);
    return tokens.some((token) => timingSafeEqual(token, given));
  };
  const addressAllowed = (ctx: Context): boolean => {
    const address = parseAddress(ctx.request.ip);
    return address !== null && ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));
  };

  return (ctx) => {
    if (tokens.length > 0 && tokenAllowed(ctx)) return;
    if (ranges.length > 0 && addressAllowed(ctx)) return;
    if (tokens.length === 0 && ranges.length === 0) throw new ForbiddenError('Metrics are enabled but nobody may read them: set METRICS_TOKENS or METRICS_ALLOWED_IPS.');
    throw new ForbiddenError('Reading /metrics needs a token from METRICS_TOKENS (Authorization: Bearer <token>) or an address in METRICS_ALLOWED_IPS.');
  };
}
