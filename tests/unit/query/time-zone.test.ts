import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { checkedTimeZone, isTimeZone } from '../../../server/query/time-zone.ts';

describe('time zone names', () => {
  it('accepts IANA zones, also when asked again (remembered)', () => {
    for (let round = 0; round < 2; round++) {
      expect(isTimeZone('UTC')).toBe(true);
      expect(isTimeZone('America/Sao_Paulo')).toBe(true);
      expect(checkedTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    }
  });

  it('refuses names Node does not know or that could not be a zone, every time', () => {
    for (let round = 0; round < 2; round++) {
      expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
      expect(isTimeZone("UTC'; drop table x --")).toBe(false);
      expect(isTimeZone('')).toBe(false);
      expect(() => checkedTimeZone('Mars/Olympus_Mons')).toThrow(InvalidQueryError);
    }
    let caught: unknown;
    try {
      checkedTimeZone('Nowhere/Atlantis');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidQueryError);
    expect((caught as InvalidQueryError).extensions).toMatchObject({ field: 'timeZone' });
  });
});
