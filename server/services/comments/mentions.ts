const MENTION = /@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/** The user ids mentioned in a comment (`@<uuid>`, Directus' form), lowercased, each once. */
export function mentionedUsers(comment: string): string[] {
  return [...new Set([...comment.matchAll(MENTION)].map((match) => match[1]!.toLowerCase()))];
}
