/** Rows a read returns when it sets no limit, at the root and per nested relation (DESIGN.md §4). */
export const QUERY_LIMIT_DEFAULT = 100;

/** How many relations one field path, filter, sort or deep query may cross. */
export const MAX_RELATIONAL_DEPTH = 10;

/** What a concealed field reads as when it holds a value. */
export const CONCEALED_VALUE = '**********';

/** Comparison operators of the filter language (DESIGN.md §4). */
export const FILTER_OPERATORS = [
  '_eq',
  '_neq',
  '_lt',
  '_lte',
  '_gt',
  '_gte',
  '_in',
  '_nin',
  '_null',
  '_nnull',
  '_contains',
  '_ncontains',
  '_icontains',
  '_nicontains',
  '_starts_with',
  '_istarts_with',
  '_nstarts_with',
  '_nistarts_with',
  '_ends_with',
  '_iends_with',
  '_nends_with',
  '_niends_with',
  '_between',
  '_nbetween',
  '_empty',
  '_nempty',
  '_regex',
  '_intersects',
  '_nintersects',
  '_intersects_bbox',
  '_nintersects_bbox',
  '_some',
  '_none',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Directus's geometry operators: Tessera has no geometry field type, so each is refused naming the field. */
export const GEOMETRY_OPERATORS: readonly string[] = ['_intersects', '_nintersects', '_intersects_bbox', '_nintersects_bbox'];

/**
 * Functions usable on a field in fields, filter, sort and groupBy: `year(date)`, `count(comments)`.
 * `isoyear` (Tessera's addition) is the ISO-8601 year `week` belongs to, so `isoyear` + `week` name one week.
 */
export const FIELD_FUNCTIONS = ['year', 'month', 'week', 'day', 'weekday', 'hour', 'minute', 'second', 'count', 'isoyear'] as const;
export type FieldFunction = (typeof FIELD_FUNCTIONS)[number];

/** Aggregate functions of `aggregate[fn]=field`. */
export const AGGREGATE_FUNCTIONS = [
  'count',
  'countDistinct',
  'countAll',
  'sum',
  'sumDistinct',
  'avg',
  'avgDistinct',
  'min',
  'max',
] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

/** Counts a read can return in `meta`. */
export const META_KEYS = ['total_count', 'filter_count'] as const;
export type MetaKey = (typeof META_KEYS)[number];
