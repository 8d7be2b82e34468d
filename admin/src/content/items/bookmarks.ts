import { apiData } from '../../providers/http-client.ts';

/** A saved, named view of a collection shown under it in the menu. */
export interface BookmarkEntry {
  id: number;
  bookmark: string;
  collection: string;
}

const CHANGED = 'tessera:bookmarks-changed';

/** The bookmarks the caller may read (their own, their role's, the global ones). */
export async function readBookmarks(): Promise<BookmarkEntry[]> {
  return (await apiData<BookmarkEntry[]>('/presets', { query: { fields: 'id,bookmark,collection', filter: { bookmark: { _nnull: true } }, sort: 'bookmark', limit: -1 } }).catch(() => [])) ?? [];
}

/** Tells the menu to read the bookmarks again (after one was made or deleted). */
export function announceBookmarksChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/** Runs `listener` whenever bookmarks change; returns the unsubscribe. */
export function onBookmarksChanged(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  return () => window.removeEventListener(CHANGED, listener);
}
