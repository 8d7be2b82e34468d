import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { collabSocket, type CollabMessage, type CollabUser } from './collab-socket.ts';

/** Who else has an item open, and which field each holds. */
export interface ItemPresence {
  /** The other connections in the room (a user with two tabs counts twice). */
  others: CollabUser[];
  /** The member of another connection editing `field`, if any: the field is locked for this one. */
  lockOf(field: string): CollabUser | null;
  /** Tells the room this connection edits `field` (null: none). */
  focus(field: string | null): void;
}

interface RoomState {
  room: string | null;
  me: string | null;
  users: Map<string, CollabUser>;
  focuses: Map<string, string>;
}

const EMPTY: RoomState = { room: null, me: null, users: new Map(), focuses: new Map() };

/**
 * Joins the item's collab room (docs/realtime.md, "Collaborative editing") while `enabled`, and calls
 * `onSave` when someone saves the item, `onGone` when it was deleted or is no longer readable.
 */
export function useItemPresence(collection: string, item: string | null, version: string | null, enabled: boolean, onSave: () => void, onGone: () => void): ItemPresence {
  const [state, setState] = useState<RoomState>(EMPTY);
  const roomRef = useRef<string | null>(null);
  const wanted = useRef<string | null>(null);
  const handlers = useRef({ onSave, onGone });
  handlers.current = { onSave, onGone };

  useEffect(() => {
    if (!enabled) return;
    roomRef.current = null;
    setState(EMPTY);
    const join = () => {
      roomRef.current = null;
      collabSocket.send({ action: 'join', collection, item, version });
    };
    const onMessage = (message: CollabMessage) => {
      if (message.action === 'init') {
        if (message.collection !== collection || message.item !== item || message.version !== version) return;
        roomRef.current = message.room ?? null;
        const users = new Map((message.users as CollabUser[]).map((user) => [user.connection, user]));
        setState({ room: roomRef.current, me: message.connection, users, focuses: new Map(Object.entries(message.focuses as Record<string, string>)) });
        // After a reconnection the field this tab was editing is taken again.
        if (wanted.current) collabSocket.send({ action: 'focus', room: roomRef.current, field: wanted.current });
        return;
      }
      if (!roomRef.current || message.room !== roomRef.current) return;
      if (message.action === 'save') return handlers.current.onSave();
      if (message.action === 'delete') return handlers.current.onGone();
      setState((current) => {
        const users = new Map(current.users);
        const focuses = new Map(current.focuses);
        if (message.action === 'join') users.set(message.connection, { connection: message.connection, user: message.user, name: message.name ?? null, color: message.color });
        else if (message.action === 'leave') {
          users.delete(message.connection);
          focuses.delete(message.connection);
        } else if (message.action === 'focus') {
          if (message.field === null) focuses.delete(message.connection);
          else focuses.set(message.connection, message.field);
        } else return current;
        return { ...current, users, focuses };
      });
    };
    const stop = collabSocket.listen(onMessage, join);
    return () => {
      if (roomRef.current) collabSocket.send({ action: 'leave', room: roomRef.current });
      roomRef.current = null;
      stop();
    };
  }, [collection, item, version, enabled]);

  const focus = useCallback((field: string | null) => {
    wanted.current = field;
    if (roomRef.current) collabSocket.send({ action: 'focus', room: roomRef.current, field });
  }, []);

  const lockOf = useCallback(
    (field: string) => {
      for (const [connection, held] of state.focuses) if (held === field && connection !== state.me) return state.users.get(connection) ?? null;
      return null;
    },
    [state],
  );

  // One object per change of the room, so the form's fields re-render only when presence changes.
  return useMemo(() => ({ others: [...state.users.values()].filter((user) => user.connection !== state.me), lockOf, focus }), [state, lockOf, focus]);
}
