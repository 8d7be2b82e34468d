import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatNumber } from '../../../admin/src/i18n/format.ts';

// The formatters follow the locale they are given, whatever the machine's (tests run with TZ=UTC or not:
// instants are compared through the same Date, calendar days must not move).
/** ICU versions differ on the space before AM/PM (narrow no-break or plain). */
const spaced = (text: string) => text.replace(/\s/g, ' ');

describe('formatting in the app locale', () => {
  const instant = new Date(2026, 10, 23, 17, 42, 48);

  it('writes dates and times the Brazilian way in pt-BR and the American way in en-US', () => {
    expect(formatDate(instant, 'pt-BR')).toBe('23/11/2026, 17:42');
    expect(spaced(formatDate(instant, 'en-US'))).toBe('11/23/26, 5:42 PM');
    expect(formatDate(instant.toISOString(), 'pt-BR')).toBe('23/11/2026, 17:42');
    expect(formatDate(instant, 'pt-BR', 'time')).toBe('17:42');
  });

  it('reads a date column as a calendar day and a time column as a time of day', () => {
    expect(formatDate('2026-01-02', 'pt-BR', 'date')).toBe('02/01/2026');
    expect(formatDate('2026-01-02', 'en-US', 'date')).toBe('1/2/26');
    expect(formatDate('08:05:00', 'pt-BR', 'time')).toBe('08:05');
    expect(spaced(formatDate('08:05:00', 'en-US', 'time'))).toBe('8:05 AM');
  });

  it('leaves empty and unreadable values alone', () => {
    expect(formatDate(null, 'pt-BR')).toBe('');
    expect(formatDate('not a date', 'pt-BR')).toBe('not a date');
    expect(formatNumber('', 'pt-BR')).toBe('');
    expect(formatNumber('abc', 'pt-BR')).toBe('abc');
  });

  it('groups and separates numbers by locale, decimals and big integers without losing digits', () => {
    expect(formatNumber(1234.5, 'pt-BR')).toBe('1.234,5');
    expect(formatNumber(1234.5, 'en-US')).toBe('1,234.5');
    expect(formatNumber('12345678901234567890.25', 'pt-BR')).toBe('12.345.678.901.234.567.890,25');
    expect(formatNumber('9007199254740993', 'en-US')).toBe('9,007,199,254,740,993');
  });

  it('writes file sizes in decimal units with the locale decimal separator', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(999, 'en-US')).toBe('999 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 kB');
    expect(formatBytes(1536, 'pt-BR')).toBe('1,5 kB');
    expect(formatBytes('52000000', 'en-US')).toBe('52 MB');
    expect(formatBytes(3_200_000_000, 'pt-BR')).toBe('3,2 GB');
    expect(formatBytes(null, 'en-US')).toBe('');
  });
});
