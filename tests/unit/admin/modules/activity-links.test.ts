import { describe, expect, it } from 'vitest';
import { activityFilter, activityItemLink } from '../../../../admin/src/modules/activity/activity-links.ts';

describe('activity links', () => {
  it('opens user collection items in the item editor', () => {
    expect(activityItemLink({ collection: 'articles', item: '15', action: 'create' })).toBe('/content/articles/15');
    expect(activityItemLink({ collection: 'blog posts', item: 'a/b', action: 'update' })).toBe('/content/blog%20posts/a%2Fb');
  });

  it('opens users, roles, settings and collections in their screens; nothing for deletions or other system rows', () => {
    expect(activityItemLink({ collection: 'tessera_users', item: 'u1', action: 'update' })).toBe('/users/u1');
    expect(activityItemLink({ collection: 'tessera_roles', item: 'r1', action: 'create' })).toBe('/roles/r1');
    expect(activityItemLink({ collection: 'tessera_settings', item: '1', action: 'update' })).toBe('/settings');
    expect(activityItemLink({ collection: 'tessera_permissions', item: '3', action: 'create' })).toBeNull();
    expect(activityItemLink({ collection: 'articles', item: '15', action: 'delete' })).toBeNull();
  });
});

describe('activity filter', () => {
  it('combines the chosen user, action, collection and time range', () => {
    expect(activityFilter({})).toBeNull();
    expect(activityFilter({ action: 'create' })).toEqual({ action: { _eq: 'create' } });
    expect(activityFilter({ user: 'u1', collection: 'articles', from: '2026-01-01T03:00:00.000Z', to: '2026-02-01T02:59:59.999Z' })).toEqual({
      _and: [
        { user: { _eq: 'u1' } },
        { collection: { _eq: 'articles' } },
        { timestamp: { _gte: '2026-01-01T03:00:00.000Z' } },
        { timestamp: { _lte: '2026-02-01T02:59:59.999Z' } },
      ],
    });
  });
});
