import type { Redis } from 'ioredis';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ActionPayload } from '../events/event-names.ts';
import { parseQuery } from '../query/parse-query.ts';
import { createRedisClient, redisNamespace } from '../redis/redis-client.ts';
import { outageNotice, type OutageNotice } from '../redis/outage-notice.ts';
import { ItemsService } from '../services/items/items-service.ts';

/** The Redis channel (after the project's namespace) item changes are announced on. */
export const REALTIME_CHANNEL = 'realtime-items';

export type ChangeAction = 'create' | 'update' | 'delete';

/** One item change: only collection, action and keys cross instances; each re-reads for its subscribers. */
export interface ItemChange {
  collection: string;
  action: ChangeAction;
  keys: Array<string | number>;
}

/** A `subscribe` of one socket. */
export interface Subscription {
  uid: string | number | undefined;
  collection: string;
  /** Only this kind of change is sent (Directus's `event` of a subscribe message); all three when absent. */
  event?: ChangeAction;
  /** The raw query object of the subscribe message (fields, filter, sort …). */
  query: Record<string, unknown>;
  accountability: () => Accountability;
  send: (message: Record<string, unknown>) => void;
}

/** Subscriptions of this instance and the delivery of item changes to them (and, through Redis, to other instances'). */
export interface RealtimeHub {
  add(subscription: Subscription): () => void;
  /** Reads a subscription's items (all of them for `init`, or only `keys`) as its subscriber may see them. */
  read(subscription: Subscription, keys?: Array<string | number>): Promise<Record<string, unknown>[]>;
  /** How many subscriptions of this instance listen to `collection` (tests, bench wait on it). */
  subscribers(collection: string): number;
  /** How many subscriptions this instance holds in all (/metrics). */
  subscriptionCount(): number;
  /** Calls `listener` with every item change this instance hears (collaborative editing's saves); answers the removal. */
  onChange(listener: (change: ItemChange) => Promise<void>): () => void;
  /** Resolves once deliveries started so far are done (tests, bench). */
  idle(): Promise<void>;
  ready: Promise<void>;
  close(): Promise<void>;
}

export function createRealtimeHub(app: AppContext): RealtimeHub {
  const byCollection = new Map<string, Set<Subscription>>();
  const running = new Set<Promise<void>>();
  const listeners = new Set<(change: ItemChange) => Promise<void>>();

  const read = async (subscription: Subscription, keys?: Array<string | number>) => {
    const schema = await app.schema.get();
    const service = new ItemsService(subscription.collection, { ...app.servicesContext(subscription.accountability()), schema });
    const raw = { ...subscription.query };
    if (keys) {
      const byKey = { [service.primaryKeyField]: { _in: keys } };
      // @directus/sdk sends the filter as a JSON string, the URL form.
      const filter = typeof raw.filter === 'string' ? (JSON.parse(raw.filter) as unknown) : raw.filter;
      raw.filter = filter ? { _and: [filter, byKey] } : byKey;
      raw.limit = -1;
      delete raw.offset;
      delete raw.page;
    }
    const result = await service.readByQuery(parseQuery(raw));
    return result.data as Record<string, unknown>[];
  };

  const deliverTo = async (target: Subscription, change: ItemChange) => {
    const { uid } = target;
    const subscription = { ...target, send: (message: Record<string, unknown>) => (!target.event || message.event === target.event ? target.send(message) : undefined) };
    // Keys as the deleting caller sent them, as Directus sends them: a path's strings, a JSON body's numbers.
    if (change.action === 'delete') return subscription.send({ type: 'subscription', event: 'delete', data: change.keys, uid });
    const schema = await app.schema.get();
    const pk = schema.collections[change.collection]?.primary;
    // The query may leave the primary key out; it is read along to tell which items are still visible.
    const fields = subscription.query.fields;
    const withKey = pk && fields !== undefined ? { ...subscription, query: { ...subscription.query, fields: [...toList(fields), pk] } } : subscription;
    const items = await read(withKey, change.keys);
    const visible = new Set(items.map((item) => String(item[pk!])));
    const data = pk && fields !== undefined && !toList(fields).includes(pk) && !toList(fields).includes('*') ? items.map(({ [pk]: _, ...rest }) => rest) : items;
    // Directus sends a batch create as one event per item (each its own create); an update as one event.
    if (change.action === 'create') for (const item of data) subscription.send({ type: 'subscription', event: 'create', data: [item], uid });
    else if (data.length > 0) subscription.send({ type: 'subscription', event: change.action, data, uid });
    // An update that took an item out of what the subscriber may (or asked to) see: gone for them.
    if (change.action === 'update') {
      const gone = change.keys.filter((key) => !visible.has(String(key)));
      if (gone.length > 0) subscription.send({ type: 'subscription', event: 'delete', data: gone.map(String), uid });
    }
  };

  const track = (work: Promise<void>, change: ItemChange) => {
    const run: Promise<void> = work.catch((error: unknown) => app.logger.warn({ err: error, collection: change.collection }, 'realtime delivery failed')).finally(() => running.delete(run));
    running.add(run);
  };
  // One subscription gets its changes in the order they happened (a batch create is one change per item, and
  // Directus's clients expect those events in the batch's order), whatever order their reads finish in.
  const lastDelivery = new WeakMap<Subscription, Promise<void>>();
  const deliver = (change: ItemChange) => {
    for (const subscription of byCollection.get(change.collection) ?? []) {
      const delivery = (lastDelivery.get(subscription) ?? Promise.resolve()).then(() => deliverTo(subscription, change));
      lastDelivery.set(subscription, delivery.catch(() => undefined));
      track(delivery, change);
    }
    for (const listener of listeners) track(listener(change), change);
  };

  let publisher: Redis | null = null;
  let subscriber: Redis | null = null;
  let ready = Promise.resolve();
  const channel = redisNamespace(app.config.database.url, app.config.dataDir) + REALTIME_CHANNEL;
  if (app.config.redis.url) {
    publisher = createRedisClient(app.config.redis.url, app.logger, 'realtime (publish)');
    subscriber = createRedisClient(app.config.redis.url, app.logger, 'realtime (subscribe)', { subscriber: true });
    subscriber.on('message', (from, message) => {
      if (from === channel) deliver(JSON.parse(message) as ItemChange);
    });
    const sub = subscriber;
    ready = new Promise<void>((resolve) => {
      sub.on('ready', () => void sub.subscribe(channel).then(() => resolve(), () => resolve()));
      sub.once('error', () => resolve());
    });
  }
  const announcing = outageNotice(app.logger, {
    lost: 'could not announce item changes through redis; delivering them on this instance only until it is back',
    restored: 'announcing item changes through redis again',
  });
  const member: HubMember = { channel: publisher ? channel : null, publisher, deliver, announcing };
  const leave = joinProcess(member, app.events);

  return {
    add(subscription) {
      let set = byCollection.get(subscription.collection);
      if (!set) byCollection.set(subscription.collection, (set = new Set()));
      set.add(subscription);
      return () => {
        set.delete(subscription);
        if (set.size === 0) byCollection.delete(subscription.collection);
      };
    },
    read,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribers: (collection) => byCollection.get(collection)?.size ?? 0,
    subscriptionCount: () => {
      let count = 0;
      for (const subscriptions of byCollection.values()) count += subscriptions.size;
      return count;
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    ready,
    async close() {
      leave();
      await Promise.allSettled([publisher?.quit(), subscriber?.quit()]);
      publisher?.disconnect();
      subscriber?.disconnect();
    },
  };
}

function toList(fields: unknown): string[] {
  if (Array.isArray(fields)) return fields.map(String);
  return String(fields).split(',');
}

interface HubMember {
  /** The Redis channel this hub hears changes on; null without Redis. */
  channel: string | null;
  publisher: Redis | null;
  deliver: (change: ItemChange) => void;
  /** Failed announcements: the first of an outage and the recovery are logged, with the count. */
  announcing: OutageNotice;
}

/**
 * A process may run several hubs (tests, embedded servers), each on its app's event spine. One listener
 * per spine serves every hub of the process: a change is published once per Redis channel and every hub
 * of that channel, here or in another process, delivers it when Redis hands it back; hubs without Redis,
 * or whose Redis refused the publish, get it directly.
 */
const members = new Set<HubMember>();
const listening = new Map<EventBus, { hubs: number; stop: () => void }>();

function joinProcess(member: HubMember, events: EventBus): () => void {
  members.add(member);
  let listener = listening.get(events);
  if (!listener) {
    const offs = (['create', 'update', 'delete'] as const).map((action) => events.onAction(`items.${action}`, (meta) => announce(action, meta)));
    listening.set(events, (listener = { hubs: 0, stop: () => offs.forEach((off) => off()) }));
  }
  listener.hubs += 1;
  return () => {
    members.delete(member);
    if (--listener.hubs === 0) {
      listener.stop();
      listening.delete(events);
    }
  };
}

function announce(action: ChangeAction, meta: ActionPayload): void {
  if (!meta.collection || meta.keys.length === 0) return;
  const change: ItemChange = { collection: meta.collection, action, keys: meta.keys };
  const byChannel = new Map<string, HubMember[]>();
  for (const member of members) {
    if (!member.channel) member.deliver(change);
    else byChannel.set(member.channel, [...(byChannel.get(member.channel) ?? []), member]);
  }
  for (const [channel, group] of byChannel) {
    group[0]!.publisher!.publish(channel, JSON.stringify(change)).then(
      () => group[0]!.announcing.succeeded(),
      (error: unknown) => {
        group[0]!.announcing.failed(error);
        for (const member of group) member.deliver(change);
      },
    );
  }
}
