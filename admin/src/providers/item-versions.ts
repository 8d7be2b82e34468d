import { useSyncExternalStore } from 'react';

/**
 * The ETag of each item as the admin last read or wrote it, by its API path (docs/collaboration.md, "No lost
 * updates"): the item form sends it back as If-Match when it saves.
 */
const versions = new Map<string, string>();
const listeners = new Set<() => void>();

/** Notes the ETag a read or write of `path` answered (nothing when it answered none). */
export function rememberVersion(path: string, headers: Headers): void {
  const etag = headers.get('ETag');
  if (!etag || versions.get(path) === etag) return;
  versions.set(path, etag);
  for (const listener of listeners) listener();
}

/** The item's ETag as last read or written, if any. */
export function versionOf(path: string): string | undefined {
  return versions.get(path);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** versionOf for a component, which renders again when it changes. */
export function useItemVersion(path: string | null): string | undefined {
  return useSyncExternalStore(subscribe, () => (path ? versions.get(path) : undefined));
}
