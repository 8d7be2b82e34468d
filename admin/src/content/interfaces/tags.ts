/**
 * Tags as Directus's `tags` options shape them: `whitespace` replaces spaces inside a tag (e.g. `-`),
 * `capitalization` (`uppercase`, `lowercase`), duplicates dropped, `alphabetize` sorts.
 */
export function tidyTags(tags: readonly unknown[], options: Record<string, unknown>): string[] {
  const whitespace = typeof options.whitespace === 'string' ? options.whitespace : null;
  const shaped = tags.map((tag) => {
    let text = String(tag).trim();
    if (whitespace !== null) text = text.replace(/\s+/g, whitespace);
    if (options.capitalization === 'uppercase') text = text.toUpperCase();
    if (options.capitalization === 'lowercase') text = text.toLowerCase();
    return text;
  });
  const unique = [...new Set(shaped.filter((tag) => tag !== ''))];
  return options.alphabetize ? unique.sort((a, b) => a.localeCompare(b)) : unique;
}
