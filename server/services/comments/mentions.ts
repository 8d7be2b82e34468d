const MENTION = /@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/** The user ids mentioned in a comment (`@<uuid>`, Directus' form), lowercased, each once. */
export function mentionedUsers(comment: string): string[] {
  return [...new Set([...comment.matchAll(MENTION)].map((match) => match[1]!.toLowerCase()))];
}

/** The comment with each `@<uuid>` of a known user written as `@Name` (for notifications, which people read as text). */
export function withMentionNames(comment: string, names: Readonly<Record<string, string>>): string {
  return comment.replace(MENTION, (whole, id: string) => {
    const name = names[id.toLowerCase()];
    return name ? `@${name}` : whole;
  });
}
