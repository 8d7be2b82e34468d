import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS as ADMIN_OPERATORS } from '../../../admin/src/modules/shared/json-rules.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { FailedValidationError, InvalidPayloadError } from '../../../server/errors.ts';
import { FILTER_OPERATORS, GEOMETRY_OPERATORS } from '../../../server/query/constants.ts';
import { assertValidPayload } from '../../../server/permissions/validate-payload.ts';
import type { Filter } from '../../../server/query/types.ts';

const who = systemAccountability();
const passes = (rule: Record<string, unknown>, payload: Record<string, unknown>) => {
  try {
    assertValidPayload(rule as Filter, payload, 'create', who);
    return true;
  } catch (error) {
    if (error instanceof FailedValidationError) return false;
    throw error;
  }
};

/** Operators only the query compiler knows: relational quantifiers and geometry ones (refused there too). */
const NOT_FOR_VALUES = new Set(['_some', '_none', ...GEOMETRY_OPERATORS]);

/** For every value operator of the compiler: a value that meets it and one that does not. */
const CASES: Record<string, { expected: unknown; meets: unknown; fails: unknown }> = {
  _eq: { expected: 'a', meets: 'a', fails: 'b' },
  _neq: { expected: 'a', meets: 'b', fails: 'a' },
  _lt: { expected: 5, meets: 4, fails: 5 },
  _lte: { expected: 5, meets: 5, fails: 6 },
  _gt: { expected: 5, meets: 6, fails: 5 },
  _gte: { expected: 5, meets: 5, fails: 4 },
  _in: { expected: ['a', 'b'], meets: 'b', fails: 'c' },
  _nin: { expected: ['a', 'b'], meets: 'c', fails: 'a' },
  _null: { expected: true, meets: null, fails: 'x' },
  _nnull: { expected: true, meets: 'x', fails: null },
  _empty: { expected: true, meets: '', fails: 'x' },
  _nempty: { expected: true, meets: 'x', fails: '' },
  _contains: { expected: 'ell', meets: 'Hello', fails: 'HELLO' },
  _ncontains: { expected: 'ell', meets: 'HELLO', fails: 'Hello' },
  _icontains: { expected: 'ELL', meets: 'hello', fails: 'help' },
  _nicontains: { expected: 'ELL', meets: 'help', fails: 'hello' },
  _starts_with: { expected: 'He', meets: 'Hello', fails: 'hello' },
  _istarts_with: { expected: 'HE', meets: 'hello', fails: 'oh hello' },
  _nstarts_with: { expected: 'He', meets: 'hello', fails: 'Hello' },
  _nistarts_with: { expected: 'HE', meets: 'oh hello', fails: 'hello' },
  _ends_with: { expected: 'lo', meets: 'Hello', fails: 'HELLO' },
  _iends_with: { expected: 'LO', meets: 'hello', fails: 'help' },
  _nends_with: { expected: 'lo', meets: 'HELLO', fails: 'Hello' },
  _niends_with: { expected: 'LO', meets: 'help', fails: 'hello' },
  _between: { expected: [1, 10], meets: 10, fails: 11 },
  _nbetween: { expected: [1, 10], meets: 11, fails: 1 },
  _regex: { expected: '^[a-z]+$', meets: 'abc', fails: 'ab1' },
};

describe('permission validation rules know every operator of the query compiler', () => {
  const valueOperators = FILTER_OPERATORS.filter((operator) => !NOT_FOR_VALUES.has(operator));

  it('has a case for every value operator the compiler supports', () => {
    expect(valueOperators.filter((operator) => !(operator in CASES))).toEqual([]);
  });

  for (const operator of valueOperators) {
    it(`${operator}: a value meeting it passes, one that does not is a 400 naming the field and operator`, () => {
      const { expected, meets, fails } = CASES[operator]!;
      expect(passes({ title: { [operator]: expected } }, { title: meets })).toBe(true);
      expect(passes({ title: { [operator]: expected } }, { title: fails })).toBe(false);
      expect(() => assertValidPayload({ title: { [operator]: expected } } as Filter, { title: fails }, 'create', who)).toThrow(
        expect.objectContaining({ extensions: expect.objectContaining({ field: 'title', type: operator }) }),
      );
    });
  }

  it('refuses relational and geometry operators as rules on written values (400 naming the operator)', () => {
    for (const operator of NOT_FOR_VALUES) {
      expect(() => assertValidPayload({ title: { [operator]: {} } } as Filter, { title: 'x' }, 'create', who)).toThrow(InvalidPayloadError);
    }
  });

  it("the admin's rule editor accepts every operator of the compiler but geometry ones", () => {
    expect(FILTER_OPERATORS.filter((operator) => !GEOMETRY_OPERATORS.includes(operator) && !ADMIN_OPERATORS.has(operator))).toEqual([]);
  });
});
