import { useEffect, useState } from 'react';
import { collabSocket, type CollabMessage, type CollabUser } from './collab-socket.ts';

/** Who has which item of a collection open (item key → members), for the list's rows; only items this user may read. */
export function useCollectionPresence(collection: string, enabled: boolean): Record<string, CollabUser[]> {
  const [byItem, setByItem] = useState<Record<string, CollabUser[]>>({});
  useEffect(() => {
    setByItem({});
    if (!enabled) return;
    const onMessage = (message: CollabMessage) => {
      if (message.action !== 'presence' || message.collection !== collection) return;
      const items = message.items as Record<string, CollabUser[]>;
      // The answer to `watch` is the whole picture; later ones name the items that changed.
      setByItem((current) => (message.uid === 'list' ? { ...items } : { ...current, ...items }));
    };
    const stop = collabSocket.listen(onMessage, () => collabSocket.send({ action: 'watch', collection, uid: 'list' }));
    return () => {
      collabSocket.send({ action: 'unwatch', collection });
      stop();
    };
  }, [collection, enabled]);
  return byItem;
}
