import { describe, expect, it } from 'vitest';
import { archiveValue, copiedFields, copyPayload, copyReadFields, isArchived } from '../../../admin/src/content/items/item-copy.ts';
import type { FieldInfo } from '../../../admin/src/content/schema/types.ts';

const field = (name: string, type: string, special: string[] = [], primary = false) =>
  ({ collection: 'articles', field: name, type, meta: { special }, schema: type === 'alias' ? null : { is_primary_key: primary } }) as unknown as FieldInfo;
const fields = [
  field('id', 'integer', [], true),
  field('title', 'string'),
  field('created', 'timestamp', ['date-created']),
  field('author', 'integer', ['m2o']),
  field('comments', 'alias', ['o2m']),
  field('tags', 'alias', ['m2m']),
];
const targets = (f: FieldInfo) =>
  f.field === 'author'
    ? { collection: 'authors', primaryKey: 'id', template: '' }
    : f.field === 'comments'
      ? { collection: 'comments', primaryKey: 'id', template: '', backField: 'article' }
      : f.field === 'tags'
        ? { collection: 'tags', primaryKey: 'id', template: '', junction: { collection: 'articles_tags', primaryKey: 'id', field: 'tags_id', backField: 'articles_id' } }
        : null;

describe('save as copy', () => {
  it('copies scalars and many-to-ones by default, never the key or server-filled values', () => {
    expect(copiedFields(fields, null).map((f) => f.field)).toEqual(['title', 'author']);
    expect(copiedFields(fields, ['title', 'tags.*', 'comments']).map((f) => f.field)).toEqual(['title', 'comments', 'tags']);
  });

  it('reads to-many fields with their rows and builds a payload that creates new rows', () => {
    const chosen = copiedFields(fields, ['title', 'author', 'comments', 'tags.*']);
    expect(copyReadFields(chosen, targets)).toEqual(['title', 'author', 'comments.*', 'tags.*']);
    const original = {
      title: 'Hello',
      author: { id: 3, name: 'Ada' },
      comments: [{ id: 9, article: 1, body: 'Nice' }],
      tags: [{ id: 21, articles_id: 1, tags_id: 5, sort: 1 }],
    };
    expect(copyPayload(original, chosen, targets)).toEqual({ title: 'Hello', author: 3, comments: [{ body: 'Nice' }], tags: [{ tags_id: 5, sort: 1 }] });
  });
});

describe('archive values', () => {
  it('turns the stored text into the field type, and tells an archived item', () => {
    expect(archiveValue(field('archived', 'boolean'), 'true')).toBe(true);
    expect(archiveValue(field('state', 'integer'), '0')).toBe(0);
    expect(archiveValue(field('status', 'string'), 'archived')).toBe('archived');
    expect(isArchived({ status: 'archived' }, field('status', 'string'), 'archived')).toBe(true);
    expect(isArchived({ archived: false }, field('archived', 'boolean'), 'true')).toBe(false);
  });
});
