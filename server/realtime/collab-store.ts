import type { CollabMember } from './collab-messages.ts';

/** Which item a room is about. */
export interface RoomRef {
  room: string;
  collection: string;
  /** The item's key as text; null for a singleton. */
  item: string | null;
}

/** A member as stored: with the instance whose socket it is, so members of a dead instance can be dropped. */
export interface StoredMember extends CollabMember {
  instance: string;
}

/** Who is in a room and which field each holds (connection → field). */
export interface RoomState {
  members: StoredMember[];
  focuses: Record<string, string>;
}

/**
 * Presence shared by every instance of a project: rooms, their members and field locks. The memory store
 * serves a single instance; the Redis store (collab-redis-store.ts) serves several and expires the members
 * of an instance that stopped renewing its heartbeat.
 */
export interface CollabStore {
  /** Adds (or refreshes) a member; the room's state after it, members of dead instances left out. */
  join(ref: RoomRef, member: StoredMember): Promise<RoomState>;
  /** Removes a member and releases its field; false when it was not in the room. */
  leave(ref: RoomRef, connection: string): Promise<boolean>;
  /** Takes `field` for the connection (releasing its previous one), or releases with null; false when another member holds it. */
  focus(room: string, connection: string, field: string | null): Promise<boolean>;
  state(room: string): Promise<RoomState>;
  /** Rooms of a collection with at least one member: item → room. */
  roomsOf(collection: string): Promise<Map<string, string>>;
  /** Removes members whose instance is gone; answers the connections removed. */
  pruneDead(ref: RoomRef): Promise<string[]>;
  close(): Promise<void>;
}

/** Presence of one instance (no REDIS_URL): plain maps; every member is this instance's. */
export function createMemoryCollabStore(): CollabStore {
  const rooms = new Map<string, { ref: RoomRef; members: Map<string, StoredMember>; focuses: Map<string, string> }>();
  const stateOf = (room: string): RoomState => {
    const entry = rooms.get(room);
    if (!entry) return { members: [], focuses: {} };
    return { members: [...entry.members.values()], focuses: Object.fromEntries(entry.focuses) };
  };
  return {
    async join(ref, member) {
      let entry = rooms.get(ref.room);
      if (!entry) rooms.set(ref.room, (entry = { ref, members: new Map(), focuses: new Map() }));
      entry.members.set(member.connection, member);
      return stateOf(ref.room);
    },
    async leave(ref, connection) {
      const entry = rooms.get(ref.room);
      if (!entry?.members.delete(connection)) return false;
      entry.focuses.delete(connection);
      if (entry.members.size === 0) rooms.delete(ref.room);
      return true;
    },
    async focus(room, connection, field) {
      const entry = rooms.get(room);
      if (!entry?.members.has(connection)) return false;
      if (field === null) {
        entry.focuses.delete(connection);
        return true;
      }
      for (const [holder, held] of entry.focuses) if (held === field && holder !== connection) return false;
      entry.focuses.set(connection, field);
      return true;
    },
    async state(room) {
      return stateOf(room);
    },
    async roomsOf(collection) {
      const found = new Map<string, string>();
      for (const [room, entry] of rooms) if (entry.ref.collection === collection && entry.ref.item !== null) found.set(entry.ref.item, room);
      return found;
    },
    async pruneDead() {
      return [];
    },
    async close() {
      rooms.clear();
    },
  };
}
