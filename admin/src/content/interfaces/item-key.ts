import { useParams } from 'react-router';

/**
 * The key of the item the form edits, when the page is this collection's item page; null while the item
 * is being created (or the form is not an item page of this collection, as the bulk-edit drawer).
 */
export function useItemKey(collection: string): string | null {
  const params = useParams();
  return params.collection === collection && params.id && params.id !== '+' ? params.id : null;
}
