import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { castValue } from '../../../server/query/cast-value.ts';
import { shiftDate } from '../../../server/query/dynamic-values.ts';

describe('castValue', () => {
  it.each([
    ['integer', '42', 42],
    ['integer', -7, -7],
    ['bigInteger', '9007199254740993', '9007199254740993'],
    ['bigInteger', 12, '12'],
    ['float', '2.5', 2.5],
    ['decimal', '10.50', '10.50'],
    ['decimal', 3, '3'],
    ['boolean', 'true', true],
    ['boolean', '0', false],
    ['date', '2024-02-29', '2024-02-29'],
    ['date', new Date('2024-05-06T23:00:00Z'), '2024-05-06'],
    ['timestamp', '2024-01-15T10:30:00+02:00', '2024-01-15T10:30:00+02:00'],
    ['dateTime', '2024-01-15 10:30', '2024-01-15 10:30'],
    ['time', '09:15:30', '09:15:30'],
    ['uuid', '33333333-3333-4333-8333-333333333333', '33333333-3333-4333-8333-333333333333'],
    ['string', 12, '12'],
    ['text', null, null],
  ] as const)('%s accepts %j as %j', (type, value, expected) => {
    expect(castValue(value, type, 'field')).toEqual(expected);
  });

  it.each([
    ['integer', '4.5'],
    ['integer', '3000000000'],
    ['bigInteger', '1e3'],
    ['float', 'NaN'],
    ['boolean', 'yes'],
    ['date', '2023-02-29'],
    ['timestamp', '2024-01-15T25:00:00Z'],
    ['time', '9am'],
    ['uuid', 'not-a-uuid'],
    ['string', { a: 1 }],
    ['json', '{}'],
  ] as const)('%s refuses %j, naming the field', (type, value) => {
    expect(() => castValue(value, type, 'price')).toThrow(InvalidQueryError);
    expect(() => castValue(value, type, 'price')).toThrow(/field "price"/);
  });
});

describe('shiftDate', () => {
  const now = new Date('2024-01-31T12:00:00Z');
  it.each([
    [-1, 'day', '2024-01-30T12:00:00.000Z'],
    [2, 'hour', '2024-01-31T14:00:00.000Z'],
    [-3, 'week', '2024-01-10T12:00:00.000Z'],
    [1, 'month', '2024-03-02T12:00:00.000Z'],
    [-1, 'year', '2023-01-31T12:00:00.000Z'],
    [90, 'second', '2024-01-31T12:01:30.000Z'],
    [-15, 'minute', '2024-01-31T11:45:00.000Z'],
  ])('moves by %i %s', (amount, unit, expected) => {
    expect(shiftDate(now, amount, unit).toISOString()).toBe(expected);
  });
});
