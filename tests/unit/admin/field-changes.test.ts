import { describe, expect, it } from 'vitest';
import { changesByField } from '../../../admin/src/content/items/field-changes.ts';

describe('field history', () => {
  it('lists each field’s values from the revisions, in their order, with who and when', () => {
    const history = changesByField([
      { delta: { title: 'Third', body: 'B' }, activity: { timestamp: '2026-03-03T10:00:00Z', user: { first_name: 'Ana', last_name: 'Lima', email: 'ana@example.com' } } },
      { delta: { title: 'Second' }, activity: { timestamp: '2026-03-02T10:00:00Z', user: { first_name: null, last_name: null, email: 'bo@example.com' } } },
      { delta: null, activity: null },
      { delta: { title: 'First' }, activity: { timestamp: '2026-03-01T10:00:00Z', user: null } },
    ]);
    expect(history.get('title')).toEqual([
      { value: 'Third', timestamp: '2026-03-03T10:00:00Z', user: 'Ana Lima' },
      { value: 'Second', timestamp: '2026-03-02T10:00:00Z', user: 'bo@example.com' },
      { value: 'First', timestamp: '2026-03-01T10:00:00Z', user: null },
    ]);
    expect(history.get('body')).toHaveLength(1);
    expect(history.get('missing')).toBeUndefined();
  });
});
