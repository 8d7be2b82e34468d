/**
 * Mentions in comment text: stored as `@<user id>` (Directus's form), shown and typed as `@Name`.
 * Pure logic.
 */

const MENTION = /@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/** One run of a comment: plain text, or a mention with the user's name when known. */
export type CommentPart = { text: string } | { mention: string; name: string | null };

/** Splits stored text into text and mentions. */
export function commentParts(text: string, names: Record<string, string>): CommentPart[] {
  const parts: CommentPart[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ mention: match[1]!, name: names[match[1]!] ?? null });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** Stored text as the composer shows it: `@<id>` of a known user becomes `@Name`. */
export function toEditable(text: string, names: Record<string, string>): string {
  return text.replace(MENTION, (whole, id: string) => (names[id] ? `@${names[id]}` : whole));
}

/**
 * Typed text as it is stored: `@Name` of a user picked in the composer (or already mentioned) becomes
 * `@<id>`; longer names first, so "Ana Lu" is not taken for "Ana".
 */
export function toStored(text: string, picked: Record<string, string>): string {
  const byName = Object.entries(picked).sort(([a], [b]) => b.length - a.length);
  let result = text;
  for (const [name, id] of byName) result = result.split(`@${name}`).join(`@${id}`);
  return result;
}

/** The user ids a text mentions, each once. */
export function mentionIds(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((match) => match[1]!.toLowerCase()))];
}
