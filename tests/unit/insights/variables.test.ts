import { describe, expect, it } from 'vitest';
import { applyVariables } from '../../../server/insights/variables.ts';
import type { Filter } from '../../../server/query/types.ts';

describe('applyVariables', () => {
  it('keeps the type of a whole-string reference and interpolates inside text', () => {
    const filter: Filter = { _and: [{ views: { _gte: '{{ min }}' } }, { title: { _contains: 'part {{min}}' } }, { author: { _in: '{{ writers }}' } }] };
    expect(applyVariables(filter, { min: 10, writers: [1, 2] })).toEqual({ _and: [{ views: { _gte: 10 } }, { title: { _contains: 'part 10' } }, { author: { _in: [1, 2] } }] });
  });

  it('drops a condition on a variable nobody set, so an empty selector shows everything', () => {
    expect(applyVariables({ status: { _eq: '{{ state }}' }, views: { _gt: 1 } }, {})).toEqual({ views: { _gt: 1 } });
    expect(applyVariables({ _and: [{ status: { _eq: '{{state}}' } }, { views: { _gt: 1 } }] }, { state: '' })).toEqual({ _and: [{ views: { _gt: 1 } }] });
    expect(applyVariables({ author: { _in: '{{ writers }}' } }, { writers: [] })).toBeUndefined();
    expect(applyVariables({ _or: [{ status: { _eq: '{{ state }}' } }] }, { state: null })).toBeUndefined();
  });

  it('leaves filters without variables alone', () => {
    const filter = { _and: [], status: { _in: ['a', 'b'] }, views: { _null: true } };
    expect(applyVariables(filter, { state: 'x' })).toEqual(filter);
    expect(applyVariables(undefined, {})).toBeUndefined();
  });
});
