import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { systemAccountability } from '../auth/accountability.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { openBroadcast, type Broadcast } from '../redis/broadcast.ts';
import { createRedisClient, redisNamespace } from '../redis/redis-client.ts';
import { ItemsService } from '../services/items/items-service.ts';
import { collabAccess, type CollabAccess } from './collab-access.ts';
import { COLLAB_COLORS, type CollabColor, type CollabMember } from './collab-messages.ts';
import { COLLAB_HEARTBEAT_MS, createRedisCollabStore } from './collab-redis-store.ts';
import { createMemoryCollabStore, type CollabStore, type RoomRef, type StoredMember } from './collab-store.ts';
import type { ItemChange } from './realtime-hub.ts';

/** Rooms one connection may be in at once (an admin tab is in one; a list watch is not a room). */
export const MAX_ROOMS_PER_CONNECTION = 20;
/** Collections one connection may watch for list presence. */
export const MAX_WATCHES_PER_CONNECTION = 10;

type Message = Record<string, unknown>;

/** One socket taking part in collaborative editing (collab-session.ts). */
export interface Participant {
  connection: string;
  accountability(): Accountability;
  /** Sends a `type: "collab"` message (the session adds `type` and `order`). */
  send(message: Message): void;
  /** Rooms this socket is in, and the field it holds in each. */
  rooms: Map<string, { ref: RoomRef; version: string | null; focus: string | null }>;
  watches: Set<string>;
}

/** Said once on the project's `realtime-collab` channel and handled by every instance for its own sockets. */
interface Envelope {
  ref: RoomRef;
  message: Message;
  /** The connection that caused it, which is not told. */
  except?: string;
  /** Only members who may read this field are told (focus and its release). */
  field?: string;
  /** Who is in the room changed: list watchers of the collection are told. */
  presence?: boolean;
}

/** Rooms, field locks and list presence of this instance's sockets, shared with the others through the store and Redis. */
export interface CollabHub {
  join(participant: Participant, collection: string, item: string | null, version: string | null, color: CollabColor | null): Promise<void>;
  leave(participant: Participant, room: string | null): Promise<void>;
  focus(participant: Participant, room: string, field: string | null): Promise<void>;
  watch(participant: Participant, collection: string, uid: string | number | undefined): Promise<void>;
  unwatch(participant: Participant, collection: string | null): void;
  /** Saves and deletes of items: members are told `save` (or `delete` when the item is gone for them). */
  itemChanged(change: ItemChange): Promise<void>;
  /** Resolves once every instance listens (tests). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The room id of an item (or a version of it): the same on every instance, so they meet in one room. */
export function roomId(collection: string, item: string | null, version: string | null): string {
  return createHash('sha256').update(JSON.stringify([collection, item, version])).digest('hex').slice(0, 32);
}

export function createCollabHub(app: AppContext): CollabHub {
  const instance = randomUUID();
  const rooms = new Map<string, Set<Participant>>();
  const watchers = new Map<string, Set<Participant>>();
  const namespace = redisNamespace(app.config.database.url, app.config.dataDir);
  const redis = app.config.redis.url ? createRedisClient(app.config.redis.url, app.logger, 'collab') : null;
  const store: CollabStore = redis ? createRedisCollabStore(redis, namespace, instance) : createMemoryCollabStore();
  const accessOf = (participant: Participant): CollabAccess => collabAccess(app, participant.accountability());
  const toClient = ({ instance: _, ...member }: StoredMember): CollabMember => member;

  const deliver = async (envelope: Envelope) => {
    const { ref, message } = envelope;
    for (const participant of rooms.get(ref.room) ?? []) {
      if (participant.connection === envelope.except) continue;
      if (envelope.field && !(await accessOf(participant).canReadField(ref.collection, envelope.field))) continue;
      participant.send({ ...message, room: ref.room });
    }
    const watching = envelope.presence && ref.item !== null ? watchers.get(ref.collection) : undefined;
    if (!watching || watching.size === 0) return;
    const members = (await store.state(ref.room)).members.map(toClient);
    for (const participant of watching) {
      if (!(await accessOf(participant).canReadItem(ref.collection, ref.item))) continue;
      participant.send({ action: 'presence', collection: ref.collection, items: { [ref.item!]: members } });
    }
  };
  const deliverLogged = (envelope: Envelope) => deliver(envelope).catch((error: unknown) => app.logger.warn({ err: error }, 'collab delivery failed'));

  let broadcast: Broadcast | null = null;
  if (app.config.redis.url) {
    broadcast = openBroadcast(app.config.redis.url, app.logger, namespace, 'realtime-collab', {
      message: (text) => void deliverLogged(JSON.parse(text) as Envelope),
      // Presence lives in the store, not in the messages: a client that missed some re-reads it with its next join.
      missed: () => undefined,
    });
  }
  // This instance's sockets first, then the others': whatever a member here is told (or not) precedes
  // anything another instance's member does in response.
  const announce = async (envelope: Envelope) => {
    await deliverLogged(envelope);
    broadcast?.send(JSON.stringify(envelope));
  };

  const register = (participant: Participant, ref: RoomRef) => {
    let set = rooms.get(ref.room);
    if (!set) rooms.set(ref.room, (set = new Set()));
    set.add(participant);
  };
  const unregister = (participant: Participant, room: string) => {
    participant.rooms.delete(room);
    const set = rooms.get(room);
    set?.delete(participant);
    if (set?.size === 0) rooms.delete(room);
  };

  /** Members of instances that stopped beating are removed, and everyone is told they left. */
  const pruneDead = async (ref: RoomRef): Promise<boolean> => {
    const dead = await store.pruneDead(ref);
    for (const connection of dead) await announce({ ref, message: { action: 'leave', connection }, presence: true });
    return dead.length > 0;
  };

  const leaveRoom = async (participant: Participant, room: string) => {
    const entry = participant.rooms.get(room);
    if (!entry) return;
    unregister(participant, room);
    if (await store.leave(entry.ref, participant.connection)) await announce({ ref: entry.ref, message: { action: 'leave', connection: participant.connection }, except: participant.connection, presence: true });
  };

  // Members of a dead instance leave the rooms this instance has sockets in within a heartbeat of expiring.
  const sweep = async () => {
    for (const [room, participants] of rooms) {
      const ref = [...participants][0]?.rooms.get(room)?.ref;
      if (ref) await pruneDead(ref);
    }
  };
  const sweeper = redis ? setInterval(() => void sweep().catch((error: unknown) => app.logger.warn({ err: error }, 'collab sweep failed')), COLLAB_HEARTBEAT_MS) : undefined;
  sweeper?.unref();

  const displayName = async (user: string): Promise<string | null> => {
    const service = new ItemsService('tessera_users', { ...app.servicesContext(systemAccountability()), schema: await app.schema.get() });
    const [row] = await service.readMany([user], { fields: ['first_name', 'last_name'] });
    return [row?.first_name, row?.last_name].filter(Boolean).join(' ') || null;
  };

  const sendInit = async (participant: Participant, ref: RoomRef, version: string | null) => {
    const state = await store.state(ref.room);
    const access = accessOf(participant);
    const focuses: Record<string, string> = {};
    for (const [connection, field] of Object.entries(state.focuses)) if (await access.canReadField(ref.collection, field)) focuses[connection] = field;
    // `changes` is always empty: Tessera shares saved values, not unsaved edits (docs/realtime.md).
    participant.send({ action: 'init', room: ref.room, collection: ref.collection, item: ref.item, version, changes: {}, connection: participant.connection, focuses, users: state.members.map(toClient) });
  };

  return {
    async join(participant, collection, item, version, color) {
      const accountability = participant.accountability();
      if (!accountability.user || accountability.share) throw new ForbiddenError('Collaborative editing needs a signed-in user.');
      if (!(await accessOf(participant).canReadItem(collection, item))) throw new ForbiddenError();
      const ref: RoomRef = { room: roomId(collection, item, version), collection, item };
      if (participant.rooms.has(ref.room)) return sendInit(participant, ref, version);
      if (participant.rooms.size >= MAX_ROOMS_PER_CONNECTION) throw new InvalidPayloadError(`"join": at most ${MAX_ROOMS_PER_CONNECTION} rooms per connection.`, { field: 'action' });
      await pruneDead(ref);
      const taken = new Set((await store.state(ref.room)).members.map((member) => member.color));
      const free = COLLAB_COLORS.filter((candidate) => !taken.has(candidate));
      const chosen = color && free.includes(color) ? color : (free[0] ?? COLLAB_COLORS[Math.floor(Math.random() * COLLAB_COLORS.length)]!);
      const member: StoredMember = { connection: participant.connection, user: accountability.user, name: await displayName(accountability.user), color: chosen, instance };
      participant.rooms.set(ref.room, { ref, version, focus: null });
      register(participant, ref);
      await store.join(ref, member);
      await sendInit(participant, ref, version);
      await announce({ ref, message: { action: 'join', ...toClient(member) }, except: participant.connection, presence: true });
    },

    async leave(participant, room) {
      if (room === null) {
        for (const joined of [...participant.rooms.keys()]) await leaveRoom(participant, joined);
        return;
      }
      if (!participant.rooms.has(room)) throw new ForbiddenError(`No access to room "${room}" or it does not exist.`);
      await leaveRoom(participant, room);
    },

    async focus(participant, room, field) {
      const entry = participant.rooms.get(room);
      if (!entry) throw new ForbiddenError(`No access to room "${room}" or it does not exist.`);
      const { ref } = entry;
      // A field the caller may not edit (or that does not exist) is refused alike: no lock, no existence oracle.
      if (field !== null && !(await accessOf(participant).canUpdateField(ref.collection, field))) throw new ForbiddenError(`You may not edit field "${field}".`, { field: 'field' });
      let taken = await store.focus(room, participant.connection, field);
      // The holder may be a member of a dead instance: prune, then try once more.
      if (!taken && (await pruneDead(ref))) taken = await store.focus(room, participant.connection, field);
      if (!taken) throw new ForbiddenError(`Field "${field}" is being edited by another user.`, { field: 'field' });
      const previous = entry.focus;
      entry.focus = field;
      if (previous === field) return;
      if (previous !== null && field !== null) {
        // Moving from one field to another: those who could see the old lock learn it is gone.
        await announce({ ref, message: { action: 'focus', connection: participant.connection, field: null }, except: participant.connection, field: previous });
      }
      const shown = field ?? previous;
      if (shown !== null) await announce({ ref, message: { action: 'focus', connection: participant.connection, field }, except: participant.connection, field: shown });
    },

    async watch(participant, collection, uid) {
      const accountability = participant.accountability();
      if (!accountability.user || accountability.share) throw new ForbiddenError('Collaborative editing needs a signed-in user.');
      const access = accessOf(participant);
      if (!(await access.canReadItem(collection, null))) throw new ForbiddenError();
      if (!participant.watches.has(collection) && participant.watches.size >= MAX_WATCHES_PER_CONNECTION) throw new InvalidPayloadError(`"watch": at most ${MAX_WATCHES_PER_CONNECTION} collections per connection.`, { field: 'action' });
      participant.watches.add(collection);
      let set = watchers.get(collection);
      if (!set) watchers.set(collection, (set = new Set()));
      set.add(participant);
      const byItem = await store.roomsOf(collection);
      const readable = await access.readableItems(collection, [...byItem.keys()]);
      const items: Record<string, CollabMember[]> = {};
      for (const [item, room] of byItem) {
        if (!readable.has(item)) continue;
        const members = (await store.state(room)).members;
        if (members.length > 0) items[item] = members.map(toClient);
      }
      participant.send({ action: 'presence', collection, items, ...(uid !== undefined ? { uid } : {}) });
    },

    unwatch(participant, collection) {
      for (const name of collection === null ? [...participant.watches] : [collection]) {
        participant.watches.delete(name);
        const set = watchers.get(name);
        set?.delete(participant);
        if (set?.size === 0) watchers.delete(name);
      }
    },

    async itemChanged(change) {
      if (change.action === 'create') return;
      const keys = new Set(change.keys.map(String));
      for (const [room, participants] of rooms) {
        for (const participant of [...participants]) {
          const entry = participant.rooms.get(room);
          if (!entry || entry.ref.collection !== change.collection || (entry.ref.item !== null && !keys.has(entry.ref.item))) continue;
          // An item this member can no longer read is gone for them, as for a subscription (docs/realtime.md).
          const visible = change.action === 'update' && (await accessOf(participant).canReadItem(entry.ref.collection, entry.ref.item));
          participant.send({ action: visible ? 'save' : 'delete', room });
          if (!visible) await leaveRoom(participant, room);
        }
      }
    },

    ready: broadcast?.ready ?? Promise.resolve(),

    async close() {
      clearInterval(sweeper);
      await store.close();
      await broadcast?.close();
      if (redis) {
        await redis.quit().catch(() => undefined);
        redis.disconnect();
      }
    },
  };
}
