/** A write scenario of bench/load.ts: item creates `{ title, views }` on `collection`, each with fresh values. */
export function createScenario(collection: string) {
  return {
    name: collection,
    kind: 'write' as const,
    directus: null,
    method: 'POST' as const,
    path: `/items/${collection}`,
    example: `POST /items/${collection} {title, views}`,
    next: () => ({ body: JSON.stringify({ title: `post ${Math.random().toString(36).slice(2)}`, views: Math.floor(Math.random() * 1000) }) }),
  };
}
