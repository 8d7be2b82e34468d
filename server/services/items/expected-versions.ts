import { InvalidPayloadError } from '../../errors.ts';

/**
 * The versions a write expects its items to be at (If-Match): an item whose current version is not one of
 * `tags` is not written, and the write answers 412. Tags are opaque versions without quotes.
 */
export interface ExpectedVersions {
  tags: readonly string[];
  /**
   * The versions the write left its items at, by key text: the UPDATE returns them, so the answer's ETag
   * costs no second hash of the row.
   */
  written: Map<string, string>;
}

/** What our versions look like (item-version.ts); any other tag can never match, so it is not sent to SQL. */
const VERSION = /^[0-9a-f]{32}$/;
/** One list element of If-Match (RFC 9110 §13.1.1 / §8.8.3): an optionally weak quoted tag, then a comma or the end. */
const ELEMENT = /[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;
const EMPTY_ELEMENT = /[ \t]*,/y;

/** The ETag header value of a version. */
export function etagOf(version: string): string {
  return `"${version}"`;
}

function expectedOf(strongTags: string[]): ExpectedVersions {
  return { tags: [...new Set(strongTags.filter((tag) => VERSION.test(tag)))], written: new Map() };
}

/**
 * The If-Match header as expected versions; undefined when there is none or it is `*` (any current version).
 * Weak tags are accepted but never match: If-Match compares strongly (RFC 9110 §13.1.1).
 */
export function parseIfMatch(header: string | undefined): ExpectedVersions | undefined {
  const value = header?.trim() ?? '';
  if (value === '' || value === '*') return undefined;
  const strong: string[] = [];
  let position = 0;
  while (position < value.length) {
    EMPTY_ELEMENT.lastIndex = position;
    if (EMPTY_ELEMENT.test(value)) {
      position = EMPTY_ELEMENT.lastIndex;
      continue;
    }
    ELEMENT.lastIndex = position;
    const match = ELEMENT.exec(value);
    if (!match) throw new InvalidPayloadError('"If-Match" must be "*" or a list of entity tags in double quotes, as ETag sends them.', { field: 'If-Match' });
    if (!match[1]) strong.push(match[2]!);
    position = ELEMENT.lastIndex;
  }
  return expectedOf(strong);
}

/**
 * GraphQL's `if_match` argument: one tag or a list, each as ETag sends it or without its quotes; null or
 * `*` sets no condition.
 */
export function expectedFromArgument(value: string | readonly string[] | null | undefined): ExpectedVersions | undefined {
  if (value === null || value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (list.some((tag) => tag.trim() === '*')) return undefined;
  const strong = list.map((tag) => tag.trim()).filter((tag) => !tag.startsWith('W/')).map((tag) => (tag.length >= 2 && tag.startsWith('"') && tag.endsWith('"') ? tag.slice(1, -1) : tag));
  return expectedOf(strong);
}
