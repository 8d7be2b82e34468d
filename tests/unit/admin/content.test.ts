import { describe, expect, it } from 'vitest';
import { fieldState, matchesRule } from '../../../admin/src/content/conditions.ts';
import { renderTemplate, templateFields } from '../../../admin/src/content/display-template.ts';
import { relationalValue, toPayload } from '../../../admin/src/content/items/payload.ts';
import { buildNavigation, firstCollection } from '../../../admin/src/content/navigation.ts';
import type { CollectionInfo, FieldInfo } from '../../../admin/src/content/schema/types.ts';

const collection = (name: string, meta: Partial<NonNullable<CollectionInfo['meta']>> = {}, folder = false): CollectionInfo =>
  ({ collection: name, meta: { hidden: false, singleton: false, sort: null, group: null, translations: null, ...meta }, schema: folder ? null : { name } }) as CollectionInfo;
const field = (name: string, type: string, meta: Partial<NonNullable<FieldInfo['meta']>> = {}): FieldInfo =>
  ({ collection: 'articles', field: name, type, meta: { special: null, hidden: false, readonly: false, required: false, options: null, conditions: null, ...meta }, schema: null }) as FieldInfo;

describe('content navigation', () => {
  it('leaves out system and hidden collections, nests groups, orders by sort then name, translates labels', () => {
    const tree = buildNavigation(
      [
        collection('tessera_users'),
        collection('secret', { hidden: true }),
        collection('website', {}, true),
        collection('pages', { group: 'website', sort: 2 }),
        collection('menus', { group: 'website', sort: 1 }),
        collection('blog_posts', { translations: [{ language: 'pt-BR', translation: 'Publicações' }] }),
      ],
      'pt-BR',
    );
    expect(tree.map((node) => [node.collection, node.label, node.folder])).toEqual([
      ['blog_posts', 'Publicações', false],
      ['website', 'Website', true],
    ]);
    expect(tree[1]!.children.map((node) => node.collection)).toEqual(['menus', 'pages']);
    expect(firstCollection(tree.slice(1))).toBe('menus');
  });
});

describe('display templates', () => {
  it('renders placeholders through relations and lists the fields they need', () => {
    expect(templateFields('{{title}} by {{author.name}}')).toEqual(['title', 'author.name']);
    expect(renderTemplate('{{title}} by {{author.name}}', { id: 1, title: 'Hi', author: { name: 'Ada' } })).toBe('Hi by Ada');
    expect(renderTemplate('{{title}}', { id: 7, title: null })).toBe('7');
    expect(renderTemplate(null, 5)).toBe('5');
  });
});

describe('field conditions', () => {
  it('matches rules with _and/_or and the comparison operators', () => {
    expect(matchesRule({ status: { _eq: 'published' } }, { status: 'published' })).toBe(true);
    expect(matchesRule({ _or: [{ rating: { _gte: 4 } }, { featured: { _eq: true } }] }, { rating: 2, featured: true })).toBe(true);
    expect(matchesRule({ _and: [{ title: { _nempty: true } }, { rating: { _lt: 3 } }] }, { title: '', rating: 1 })).toBe(false);
    expect(matchesRule({ author: { name: { _eq: 'Ada' } } }, { author: { name: 'Ada' } })).toBe(true);
  });

  it('applies matching conditions over the field metadata', () => {
    const publishedAt = field('published_at', 'timestamp', { hidden: true, conditions: [{ rule: { status: { _eq: 'published' } }, hidden: false, required: true }] });
    expect(fieldState(publishedAt, { status: 'draft' })).toMatchObject({ hidden: true, required: false });
    expect(fieldState(publishedAt, { status: 'published' })).toMatchObject({ hidden: false, required: true });
  });
});

describe('form payloads', () => {
  const author = field('author', 'integer', { special: ['m2o'] });
  const tags = field('tags', 'alias', { special: ['m2m'] });
  const targets = (f: FieldInfo) =>
    f.field === 'author'
      ? { collection: 'authors', primaryKey: 'id', template: '{{name}}' }
      : f.field === 'tags'
        ? { collection: 'tags', primaryKey: 'id', template: '{{label}}', junction: { collection: 'articles_tags', primaryKey: 'id', field: 'tags_id', backField: 'articles_id' } }
        : null;

  it('turns relational objects into keys, keeping existing junction rows and creating new ones', () => {
    expect(relationalValue(author, { id: 3, name: 'Ada' }, targets(author))).toBe(3);
    expect(relationalValue(tags, [{ id: 10, tags_id: { id: 1 } }, { tags_id: { id: 2, label: 'new' } }], targets(tags))).toEqual([10, { tags_id: 2 }]);
  });

  it('sends items created inline as nested creates: o2m objects without a key, m2m junction rows holding the new item', () => {
    const articles = field('articles', 'alias', { special: ['o2m'] });
    const o2m = { collection: 'articles', primaryKey: 'id', template: '{{title}}', backField: 'author' };
    expect(relationalValue(articles, [{ id: 4, title: 'Old' }, { title: 'New', words: 12 }], o2m)).toEqual([4, { title: 'New', words: 12 }]);
    expect(relationalValue(tags, [{ id: 10, tags_id: { id: 1 } }, { tags_id: { label: 'fresh' } }], targets(tags))).toEqual([10, { tags_id: { label: 'fresh' } }]);
  });

  it('leaves fields a new item did not fill to the database, and empty lists out', () => {
    const title = field('title', 'string');
    const editable = () => true;
    expect(toPayload([title, author, tags], { title: 'A', author: undefined, tags: null }, null, editable, targets)).toEqual({ title: 'A' });
    expect(toPayload([title, tags], { title: 'A', tags: null }, { title: 'A', tags: [{ id: 10, tags_id: { id: 1 } }] }, editable, targets)).toEqual({ tags: null });
  });

  it('sends only editable fields, and on update only what changed', () => {
    const title = field('title', 'string');
    const views = field('views', 'integer');
    const editable = (f: FieldInfo) => f.field !== 'views';
    const initial = { title: 'Old', author: { id: 3, name: 'Ada' }, views: 5 };
    expect(toPayload([title, author, views], { title: 'New', author: { id: 3, name: 'Ada' }, views: 9 }, initial, editable, targets)).toEqual({ title: 'New' });
    expect(toPayload([title, author], { title: 'A', author: { id: 4 } }, null, editable, targets)).toEqual({ title: 'A', author: 4 });
  });
});
