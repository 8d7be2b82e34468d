import type { Redis } from 'ioredis';
import type { RoomRef, CollabStore, RoomState, StoredMember } from './collab-store.ts';

/** How often an instance renews its heartbeat key and its rooms' expiry (ms). */
export const COLLAB_HEARTBEAT_MS = 5_000;
/** An instance whose heartbeat key is this old is dead: its members no longer count (ms). */
export const COLLAB_INSTANCE_TTL_MS = 15_000;
/** Room keys outlive their last renewal by this much, so a project whose every instance died leaves nothing behind (ms). */
const ROOM_TTL_MS = 60_000;

// Both scripts run atomically in Redis: two instances taking one field, or a last member leaving while
// another joins, cannot interleave.
const FOCUS = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if ARGV[2] ~= '' then
  local holder = redis.call('HGET', KEYS[2], ARGV[2])
  if holder and holder ~= ARGV[1] then return 0 end
end
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do
  if held[i + 1] == ARGV[1] then redis.call('HDEL', KEYS[2], held[i]) end
end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1`;

const LEAVE = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do
  if held[i + 1] == ARGV[1] then redis.call('HDEL', KEYS[2], held[i]) end
end
if redis.call('HLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  if ARGV[2] ~= '' then redis.call('HDEL', KEYS[3], ARGV[2]) end
end
return removed`;

/** Resolves once the client is connected, or has failed to (its commands then fail on their own). */
function connected(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/**
 * Presence in Redis, shared by every instance of the project (keys under its namespace): per room a hash
 * of members (connection → member with its instance) and one of locks (field → connection), per collection
 * a hash of the items that have a room. Each instance renews `instance:<id>` every COLLAB_HEARTBEAT_MS; a
 * member whose instance key expired belongs to a dead instance and is left out, then removed by pruneDead.
 */
export function createRedisCollabStore(redis: Redis, namespace: string, instance: string): CollabStore {
  const prefix = `${namespace}collab:`;
  const membersKey = (room: string) => `${prefix}room:${room}:members`;
  const focusKey = (room: string) => `${prefix}room:${room}:focus`;
  const indexKey = (collection: string) => `${prefix}rooms:${collection}`;
  const instanceKey = (id: string) => `${prefix}instance:${id}`;
  // Rooms with members of this instance: their keys are renewed with the heartbeat.
  const local = new Map<string, { ref: RoomRef; connections: Set<string> }>();

  const beat = async () => {
    const pipeline = redis.multi().set(instanceKey(instance), '1', 'PX', COLLAB_INSTANCE_TTL_MS);
    for (const { ref } of local.values()) {
      pipeline.pexpire(membersKey(ref.room), ROOM_TTL_MS).pexpire(focusKey(ref.room), ROOM_TTL_MS).pexpire(indexKey(ref.collection), ROOM_TTL_MS);
    }
    await pipeline.exec();
  };
  // The client queues nothing while it connects (redis-client.ts): the first beat waits for the connection.
  let started = connected(redis).then(beat).catch(() => undefined);
  const timer = setInterval(() => void beat().catch(() => undefined), COLLAB_HEARTBEAT_MS);
  timer.unref();

  const alive = async (instances: string[]): Promise<Set<string>> => {
    const others = [...new Set(instances)].filter((id) => id !== instance);
    const living = new Set([instance]);
    if (others.length === 0) return living;
    const found = await redis.mget(...others.map(instanceKey));
    others.forEach((id, index) => found[index] !== null && living.add(id));
    return living;
  };

  const read = async (room: string): Promise<{ members: StoredMember[]; focuses: Record<string, string>; living: Set<string> }> => {
    const [members, focuses] = await Promise.all([redis.hgetall(membersKey(room)), redis.hgetall(focusKey(room))]);
    const parsed = Object.values(members).map((text) => JSON.parse(text) as StoredMember);
    return { members: parsed, focuses: Object.fromEntries(Object.entries(focuses).map(([field, connection]) => [connection, field])), living: await alive(parsed.map((member) => member.instance)) };
  };

  const liveState = async (room: string): Promise<RoomState> => {
    const { members, focuses, living } = await read(room);
    const live = members.filter((member) => living.has(member.instance));
    const connections = new Set(live.map((member) => member.connection));
    return { members: live, focuses: Object.fromEntries(Object.entries(focuses).filter(([connection]) => connections.has(connection))) };
  };

  const leave = async (ref: RoomRef, connection: string): Promise<boolean> => {
    const entry = local.get(ref.room);
    if (entry?.connections.delete(connection) && entry.connections.size === 0) local.delete(ref.room);
    const removed = await redis.eval(LEAVE, 3, membersKey(ref.room), focusKey(ref.room), indexKey(ref.collection), connection, ref.item ?? '');
    return Number(removed) === 1;
  };

  return {
    async join(ref, member) {
      await started;
      let entry = local.get(ref.room);
      if (!entry) local.set(ref.room, (entry = { ref, connections: new Set() }));
      entry.connections.add(member.connection);
      const pipeline = redis.multi().hset(membersKey(ref.room), member.connection, JSON.stringify(member)).pexpire(membersKey(ref.room), ROOM_TTL_MS);
      if (ref.item !== null) pipeline.hset(indexKey(ref.collection), ref.item, ref.room).pexpire(indexKey(ref.collection), ROOM_TTL_MS);
      await pipeline.exec();
      return liveState(ref.room);
    },
    leave,
    async focus(room, connection, field) {
      return Number(await redis.eval(FOCUS, 2, membersKey(room), focusKey(room), connection, field ?? '', ROOM_TTL_MS)) === 1;
    },
    state: liveState,
    async roomsOf(collection) {
      return new Map(Object.entries(await redis.hgetall(indexKey(collection))));
    },
    async pruneDead(ref) {
      const { members, living } = await read(ref.room);
      const dead = members.filter((member) => !living.has(member.instance)).map((member) => member.connection);
      for (const connection of dead) await leave(ref, connection);
      return dead;
    },
    async close() {
      clearInterval(timer);
      started = Promise.resolve();
      // This instance's members go with it; the key is removed so other instances see it dead at once.
      for (const { ref, connections } of [...local.values()]) for (const connection of [...connections]) await leave(ref, connection).catch(() => undefined);
      await redis.del(instanceKey(instance)).catch(() => undefined);
    },
  };
}
