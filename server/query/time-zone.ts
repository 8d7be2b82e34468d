import { InvalidQueryError } from '../errors.ts';

/** Zone names as IANA spells them: letters, digits and `_ + - /` (no quote can reach the SQL literal). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * Zones already found valid. Building an Intl.DateTimeFormat costs about 0.2 ms, and every read checks its
 * zone (UTC unless given); only valid names are kept, and there are a few hundred of those.
 */
const known = new Set<string>();

/** Whether `zone` is an IANA time zone name Node (and so PostgreSQL's tz database) knows. */
export function isTimeZone(zone: string): boolean {
  // The default zone needs no check: asking Intl loads ICU's time zone data, ~8 MB resident at start.
  if (zone === 'UTC') return true;
  if (known.has(zone)) return true;
  if (!ZONE_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return false;
  }
  known.add(zone);
  return true;
}

/** The zone, or INVALID_QUERY naming it when it is not an IANA zone name. */
export function checkedTimeZone(zone: string): string {
  if (!isTimeZone(zone)) throw new InvalidQueryError(`"${zone}" is not an IANA time zone such as UTC or America/Sao_Paulo.`, { field: 'timeZone' });
  return zone;
}
