import { describe, expect, it } from 'vitest';
import { activeRules, isComplete, operatorsFor, toFilter } from '../../../admin/src/content/filter-builder/filter-model.ts';
import { fromFilter } from '../../../admin/src/content/items/list-preset.ts';

describe('filter builder model', () => {
  it('builds one condition, all conditions or any condition', () => {
    expect(toFilter({ logic: 'and', rules: [{ field: 'title', operator: '_icontains', value: 'news' }] })).toEqual({ title: { _icontains: 'news' } });
    expect(
      toFilter({
        logic: 'and',
        rules: [
          { field: 'rating', operator: '_gte', value: 4 },
          { field: 'author.name', operator: '_eq', value: 'Ada' },
        ],
      }),
    ).toEqual({ _and: [{ rating: { _gte: 4 } }, { author: { name: { _eq: 'Ada' } } }] });
    expect(toFilter({ logic: 'or', rules: [{ field: 'status', operator: '_eq', value: 'draft' }] })).toEqual({ _or: [{ status: { _eq: 'draft' } }] });
  });

  it('writes a related path (m2o) and a quantified one-to-many path (_some, _none), and reads them back', () => {
    const group = {
      logic: 'and' as const,
      rules: [
        { field: 'author.name', operator: '_icontains', value: 'Ada' },
        { field: 'comments._some.approved', operator: '_eq', value: true },
        { field: 'comments._none.body', operator: '_null', value: '' },
      ],
    };
    const filter = toFilter(group);
    expect(filter).toEqual({ _and: [{ author: { name: { _icontains: 'Ada' } } }, { comments: { _some: { approved: { _eq: true } } } }, { comments: { _none: { body: { _null: true } } } }] });
    expect(fromFilter(filter!)).toEqual(group);
    // `_some` right under the root is not a field path: the builder cannot show it.
    expect(fromFilter({ _some: { a: { _eq: 1 } } } as never)).toBeNull();
  });

  it('splits comma lists for in, not in and between, and gives valueless operators true', () => {
    expect(toFilter({ logic: 'and', rules: [{ field: 'id', operator: '_in', value: '1, 2,3' }] })).toEqual({ id: { _in: ['1', '2', '3'] } });
    expect(toFilter({ logic: 'and', rules: [{ field: 'rating', operator: '_between', value: '1,5' }] })).toEqual({ rating: { _between: ['1', '5'] } });
    expect(toFilter({ logic: 'and', rules: [{ field: 'body', operator: '_empty', value: undefined }] })).toEqual({ body: { _empty: true } });
  });

  it('keeps a whole dashboard variable reference as it is, even for a list operator (panel filters)', () => {
    expect(toFilter({ logic: 'and', rules: [{ field: 'author', operator: '_in', value: ' {{ writers }} ' }] })).toEqual({ author: { _in: '{{ writers }}' } });
    expect(toFilter({ logic: 'and', rules: [{ field: 'status', operator: '_eq', value: '{{status}}' }] })).toEqual({ status: { _eq: '{{status}}' } });
    // Text around a reference is a list like any other.
    expect(toFilter({ logic: 'and', rules: [{ field: 'id', operator: '_in', value: '1, {{ id }}' }] })).toEqual({ id: { _in: ['1', '{{ id }}'] } });
  });

  it('ignores incomplete rules and counts the complete ones', () => {
    const group = { logic: 'and' as const, rules: [{ field: 'title', operator: '_eq', value: '' }, { field: 'title', operator: '_null', value: undefined }] };
    expect(isComplete(group.rules[0]!)).toBe(false);
    expect(activeRules(group)).toBe(1);
    expect(toFilter({ logic: 'and', rules: [{ field: 'title', operator: '_eq', value: '' }] })).toBeNull();
  });

  it('offers operators that fit the field type (json only presence, as the API allows)', () => {
    expect(operatorsFor('string')).toContain('_icontains');
    expect(operatorsFor('integer')).toContain('_between');
    expect(operatorsFor('integer')).not.toContain('_icontains');
    expect(operatorsFor('json')).toEqual(['_null', '_nnull']);
  });
});
