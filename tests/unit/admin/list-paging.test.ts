import { describe, expect, it } from 'vitest';
import { forgetListPaging, learnListAnswer, planListQuery } from '../../../admin/src/providers/list-paging.ts';

// The admin list on a large collection (docs/performance.md "Large tables"): the count once per filter, the
// next page by cursor.
describe('list paging memory', () => {
  const page = (n: number, extra: Record<string, unknown> = {}) => ({ fields: ['id'], limit: 25, page: n, sort: 'id', meta: 'filter_count', ...extra });

  it('asks for the count and a cursor first, then continues by cursor without the count', () => {
    const first = planListQuery('posts', page(1), 1000);
    expect(first).toEqual({ query: { ...page(1), meta: 'next_cursor,filter_count' }, knownTotal: null });
    learnListAnswer('posts', page(1), { filter_count: 1_000_000, next_cursor: 'c2' }, 1000);

    const second = planListQuery('posts', page(2), 2000);
    expect(second.knownTotal).toBe(1_000_000);
    expect(second.query).toEqual({ fields: ['id'], limit: 25, sort: 'id', after: 'c2', meta: 'next_cursor' });
    learnListAnswer('posts', page(2), { next_cursor: 'c3' }, 2000);
    expect(planListQuery('posts', page(3), 3000).query.after).toBe('c3');

    // A page no cursor leads to (a jump) is read by page; going back to page 1 needs no cursor.
    expect(planListQuery('posts', page(9), 3000).query).toEqual({ ...page(9), meta: 'next_cursor' });
    expect(planListQuery('posts', page(1), 3000).query).toEqual({ ...page(1), meta: 'next_cursor' });
  });

  it('keeps counts per filter and search, cursors per sort and page size too', () => {
    learnListAnswer('notes', page(1), { filter_count: 40, next_cursor: 'n2' }, 0);
    expect(planListQuery('notes', page(1, { search: 'x' }), 0).knownTotal).toBeNull();
    expect(planListQuery('notes', page(1, { filter: { a: { _eq: 1 } } }), 0).knownTotal).toBeNull();
    const resorted = planListQuery('notes', page(2, { sort: '-id' }), 0);
    expect(resorted.knownTotal).toBe(40);
    expect(resorted.query.after).toBeUndefined();
    expect(planListQuery('notes', page(2, { limit: 50 }), 0).query.after).toBeUndefined();
    expect(planListQuery('notes', page(2), 0).query.after).toBe('n2');
  });

  it('counts again after a minute, and after a write to the collection', () => {
    learnListAnswer('tasks', page(1), { filter_count: 7, next_cursor: 't2' }, 0);
    expect(planListQuery('tasks', page(2), 59_000).knownTotal).toBe(7);
    expect(planListQuery('tasks', page(2), 61_000).knownTotal).toBeNull();

    learnListAnswer('tasks', page(1), { filter_count: 7, next_cursor: 't2' }, 0);
    forgetListPaging('/presets/3');
    expect(planListQuery('tasks', page(2), 1).knownTotal).toBe(7);
    forgetListPaging('/items/tasks/12');
    expect(planListQuery('tasks', page(2), 1)).toEqual({ query: { ...page(2), meta: 'next_cursor,filter_count' }, knownTotal: null });
  });

  it('leaves unpaged reads alone', () => {
    const all = { fields: ['id'], limit: -1, meta: 'filter_count' };
    expect(planListQuery('things', all, 0)).toEqual({ query: all, knownTotal: null });
  });
});
