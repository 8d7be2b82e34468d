import { InvalidQueryError } from '../../errors.ts';
import { isObject } from '../../query/parse-values.ts';
import type { Query } from '../../query/types.ts';
import type { ItemComment } from './comments-service.ts';

/** The fields of a comment as Directus 11 serves it at `/comments` (its directus_comments collection). */
export const DIRECTUS_COMMENT_FIELDS = ['id', 'collection', 'item', 'comment', 'date_created', 'date_updated', 'user_created', 'user_updated'] as const;

/** The author as `user_created.*` expands it: names and avatar only, as the item's discussion shows them. */
const AUTHOR_FIELDS = ['id', 'first_name', 'last_name', 'avatar'] as const;

/** The item a `/comments` read is about: `filter` must name `collection` and `item` with `_eq` (the Directus app's and SDK's read). */
export function commentTarget(filter: Query['filter']): { collection: string; item: string } {
  const found: Record<string, string> = {};
  const visit = (node: unknown): void => {
    if (!isObject(node)) throw new InvalidQueryError('"filter" must be an object.', { field: 'filter' });
    for (const [key, value] of Object.entries(node)) {
      if (key === '_and' && Array.isArray(value)) value.forEach(visit);
      else if ((key === 'collection' || key === 'item') && isObject(value) && Object.keys(value).length === 1 && (typeof value._eq === 'string' || typeof value._eq === 'number')) found[key] = String(value._eq);
      else throw new InvalidQueryError(`/comments filters by collection and item (_eq) only; "${key}" cannot be used here.`, { field: `filter.${key}` });
    }
  };
  if (filter) visit(filter);
  if (found.collection === undefined || found.item === undefined) {
    throw new InvalidQueryError('/comments needs the item: filter[collection][_eq]=<collection>&filter[item][_eq]=<key>.', { field: 'filter' });
  }
  return { collection: found.collection, item: found.item };
}

/** A comment in Directus 11's shape; `user_created` is the author's id unless `fields` expands it. */
function shape(comment: ItemComment, expandAuthor: boolean): Record<string, unknown> {
  const author = comment.user && expandAuthor ? Object.fromEntries(AUTHOR_FIELDS.map((field) => [field, comment.user![field]])) : (comment.user?.id ?? null);
  return { id: comment.id, collection: comment.collection, item: comment.item, comment: comment.comment, date_created: comment.timestamp, date_updated: null, user_created: author, user_updated: null };
}

/** Keeps the fields `fields` names (`*` or none: all); `user_created.<x>` expands the author. */
export function shapeComment(comment: ItemComment, fields: readonly string[] | undefined): Record<string, unknown> {
  const list = fields ?? ['*'];
  const shaped = shape(comment, list.some((field) => field.startsWith('user_created.')));
  if (list.includes('*') || list.includes('*.*')) return shaped;
  const wanted = new Set(list.map((field) => field.split('.')[0]!));
  for (const name of wanted) {
    if (!(DIRECTUS_COMMENT_FIELDS as readonly string[]).includes(name)) throw new InvalidQueryError(`Comments have no field "${name}".`, { field: 'fields' });
  }
  return Object.fromEntries(Object.entries(shaped).filter(([name]) => wanted.has(name)));
}

/** The comments in the order `sort` asks (`date_created`/`id`, `-` descending; oldest first by default), then `offset` and `limit`. */
export function orderComments(comments: ItemComment[], query: Pick<Query, 'sort' | 'limit' | 'offset' | 'page'>): ItemComment[] {
  const [sort, ...rest] = query.sort ?? ['id'];
  if (rest.length > 0 || !['id', '-id', 'date_created', '-date_created'].includes(sort!)) {
    throw new InvalidQueryError('/comments sorts by date_created or id only.', { field: 'sort' });
  }
  const ordered = sort!.startsWith('-') ? [...comments].reverse() : comments;
  const limit = query.limit === undefined || query.limit === -1 ? ordered.length : query.limit;
  const offset = query.offset ?? (query.page ? (query.page - 1) * limit : 0);
  return ordered.slice(offset, offset + limit);
}
