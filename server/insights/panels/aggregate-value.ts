import { InvalidQueryError } from '../../errors.ts';

/**
 * An aggregate as a number: sums of decimal and bigInteger fields come back as exact text, min/max of a
 * date or text field are not numbers at all (INVALID_QUERY naming the option).
 */
export function toPanelNumber(value: unknown, option: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new InvalidQueryError(`"options.${option}" must name a numeric field for this function; its value is ${JSON.stringify(value)}.`, { field: `options.${option}` });
  return number;
}

/** The value of `aggregate[fn]=[field]` in an aggregate row: `{ sum: { price: 12 } }` → 12; count(*) is `{ count: 3 }`. */
export function aggregateOf(row: Record<string, unknown> | undefined, fn: string, field: string | null, option: string): number | null {
  const value = row?.[fn];
  if (field === null) return toPanelNumber(value, option);
  return toPanelNumber((value as Record<string, unknown> | null | undefined)?.[field], option);
}
