import type { WebSocket } from 'ws';
import type { AppContext } from '../app-context.ts';
import { publicAccountability, type Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError, TesseraError, TokenExpiredError } from '../errors.ts';
import { parseQuery } from '../query/parse-query.ts';
import { ItemsService } from '../services/items/items-service.ts';
import type { CollabHub } from './collab-hub.ts';
import { CollabSession } from './collab-session.ts';
import { atExpiry, type ExpiryTimer } from './expiry-timer.ts';
import { authenticateMessage, type SocketCaller } from './realtime-auth.ts';
import type { ChangeAction, RealtimeHub, Subscription } from './realtime-hub.ts';

const CHANGE_ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete'];

type Message = Record<string, unknown>;
type Origin = Pick<Accountability, 'ip' | 'userAgent' | 'origin'>;

/** One `/websocket` connection speaking Directus's realtime protocol. */
export class RealtimeConnection {
  readonly #socket: WebSocket;
  readonly #app: AppContext;
  readonly #hub: RealtimeHub;
  readonly #origin: Origin;
  #caller: SocketCaller | null;
  #expiry: ExpiryTimer | undefined;
  readonly #subscriptions = new Map<string | undefined, { subscription: Subscription; remove: () => void }>();
  readonly #collabHub: (() => Promise<CollabHub>) | null;
  /** Created with the first `collab` message. */
  #collab: CollabSession | null = null;
  /** Counted against the per-user connection limit under this key. */
  readonly onIdentity: (previous: string, next: string) => boolean;

  constructor(socket: WebSocket, app: AppContext, hub: RealtimeHub, origin: Origin, caller: SocketCaller | null, onIdentity: (previous: string, next: string) => boolean, collab: (() => Promise<CollabHub>) | null = null) {
    this.#socket = socket;
    this.#collabHub = collab;
    this.#app = app;
    this.#hub = hub;
    this.#origin = origin;
    this.#caller = caller;
    this.onIdentity = onIdentity;
    if (caller) this.#watchExpiry();
  }

  get identity(): string {
    return this.#caller?.accountability.user ? `user:${this.#caller.accountability.user}` : `ip:${this.#origin.ip ?? ''}`;
  }

  get authenticated(): boolean {
    return this.#caller !== null;
  }

  accountability(): Accountability {
    return this.#caller?.accountability ?? publicAccountability(this.#origin);
  }

  send(message: Message): void {
    if (this.#socket.readyState === this.#socket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  close(): void {
    this.#expiry?.cancel();
    for (const { remove } of this.#subscriptions.values()) remove();
    this.#subscriptions.clear();
    this.#endCollab();
  }

  /** Leaves every collab room: the hand-over to the other members when the socket closes or changes user. */
  #endCollab(): void {
    const session = this.#collab;
    this.#collab = null;
    if (session) void session.close();
  }

  async handle(message: Message): Promise<void> {
    const type = message.type;
    // Echoed as sent: @directus/sdk compares uids strictly.
    const uid = typeof message.uid === 'string' || typeof message.uid === 'number' ? message.uid : undefined;
    try {
      if (type === 'auth') return await this.#auth(message);
      if (type === 'pong') return;
      // Outside public mode nothing but `auth` is answered before it, not even a ping (as Directus's handshake).
      if (this.#app.config.realtime.auth !== 'public' && !this.#caller) {
        this.send({ type: 'auth', status: 'error', error: { code: 'AUTH_FAILED', message: 'Authenticate with an "auth" message first.' } });
        this.#socket.close(1008, 'authentication required');
        return;
      }
      if (type === 'ping') return this.send({ type: 'pong', ...(uid !== undefined ? { uid } : {}) });
      if (type === 'subscribe') return await this.#subscribe(message, uid);
      if (type === 'unsubscribe') {
        this.#unsubscribe(uid);
        // Directus confirms every unsubscribe, known uid or not; its clients wait for it.
        return this.send({ type: 'subscription', event: 'unsubscribe', ...(uid !== undefined ? { uid } : {}) });
      }
      if (type === 'items') return await this.#items(message, uid);
      if (type === 'collab' && this.#collabHub) {
        this.#collab ??= new CollabSession(await this.#collabHub(), this.#app.logger, () => this.accountability(), (out) => this.send(out));
        return await this.#collab.handle(message, uid);
      }
      throw new InvalidPayloadError(`"type": unknown message type ${JSON.stringify(type)}.`, { field: 'type' });
    } catch (error) {
      const known = error instanceof TesseraError && error.expose;
      if (!known) this.#app.logger.error({ err: error }, 'realtime message failed');
      this.send({
        type: typeof type === 'string' ? type : 'error',
        status: 'error',
        error: known ? { code: error.code, message: error.message } : { code: 'INTERNAL_SERVER_ERROR', message: 'An unexpected error occurred.' },
        ...(uid !== undefined ? { uid } : {}),
      });
    }
  }

  async #auth(message: Message): Promise<void> {
    let caller: SocketCaller;
    try {
      caller = await authenticateMessage(this.#app, message, this.#origin);
    } catch (error) {
      // Directus's codes and words, which @directus/sdk acts on: TOKEN_EXPIRED (re-authenticate), AUTH_FAILED;
      // the reason is not told (wrong password and unknown e-mail answer alike).
      const expired = error instanceof TokenExpiredError;
      const problem = expired ? { code: 'TOKEN_EXPIRED', message: 'Token expired.' } : { code: 'AUTH_FAILED', message: 'Authentication handshake failed.' };
      this.send({ type: 'auth', status: 'error', error: problem });
      if (this.#app.config.realtime.auth !== 'public' && !this.#caller) this.#socket.close(1008, 'authentication failed');
      return;
    }
    const previous = this.identity;
    const before = this.#caller;
    this.#caller = caller;
    if (!this.onIdentity(previous, this.identity)) {
      this.#caller = before;
      this.send({ type: 'auth', status: 'error', error: { code: 'REQUESTS_EXCEEDED', message: 'Too many WebSocket connections for this user.' } });
      this.#socket.close(1013, 'too many connections');
      return;
    }
    // Rooms were joined as the previous user: that presence is not the new one's.
    if (before?.accountability.user !== caller.accountability.user) this.#endCollab();
    this.#watchExpiry();
    this.send({ type: 'auth', status: 'ok', ...(caller.refreshToken ? { refresh_token: caller.refreshToken } : {}) });
  }

  /** When the token expires without a new `auth`: public mode falls back to the public role, the others close. */
  #watchExpiry(): void {
    this.#expiry?.cancel();
    const expiresAt = this.#caller?.expiresAt;
    if (!expiresAt) return;
    this.#expiry = atExpiry(expiresAt, () => {
      this.send({ type: 'auth', status: 'error', error: { code: 'TOKEN_EXPIRED', message: 'Token expired.' } });
      if (this.#app.config.realtime.auth === 'public') {
        const previous = this.identity;
        this.#caller = null;
        this.#endCollab();
        this.onIdentity(previous, this.identity);
      } else this.#socket.close(1008, 'token expired');
    });
  }

  async #subscribe(message: Message, uid: string | number | undefined): Promise<void> {
    const collection = message.collection;
    if (typeof collection !== 'string' || !collection) throw new InvalidPayloadError('"collection" is required.', { field: 'collection' });
    const query = message.query ?? {};
    if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new InvalidPayloadError('"query" must be an object.', { field: 'query' });
    if (!this.#subscriptions.has(uid === undefined ? undefined : String(uid)) && this.#subscriptions.size >= this.#app.config.realtime.maxSubscriptions) {
      throw new InvalidPayloadError(`"subscribe": at most ${this.#app.config.realtime.maxSubscriptions} subscriptions per connection.`, { field: 'uid' });
    }
    const event = message.event;
    if (event !== undefined && !CHANGE_ACTIONS.includes(event as ChangeAction)) throw new InvalidPayloadError('"event" must be create, update or delete.', { field: 'event' });
    parseQuery(query as Message);
    // A subscription's messages carry its uid as a string, as Directus sends them.
    const key = uid === undefined ? undefined : String(uid);
    const subscription: Subscription = { uid: key, collection, query: query as Message, accountability: () => this.accountability(), send: (out) => this.send(out) };
    if (event !== undefined) subscription.event = event as ChangeAction;
    // Reading first refuses a collection or field the caller may not read, before anything is registered.
    const data = await this.#hub.read(subscription);
    this.#unsubscribe(key);
    this.#subscriptions.set(key, { subscription, remove: this.#hub.add(subscription) });
    this.send({ type: 'subscription', event: 'init', data, ...(key !== undefined ? { uid: key } : {}) });
  }

  #unsubscribe(uid: string | number | undefined): void {
    if (uid === undefined) {
      for (const { remove } of this.#subscriptions.values()) remove();
      this.#subscriptions.clear();
      return;
    }
    this.#subscriptions.get(String(uid))?.remove();
    this.#subscriptions.delete(String(uid));
  }

  async #items(message: Message, uid: string | number | undefined): Promise<void> {
    const { collection, action } = message;
    if (typeof collection !== 'string' || !collection) throw new InvalidPayloadError('"collection" is required.', { field: 'collection' });
    const query = message.query === undefined ? {} : message.query;
    if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new InvalidPayloadError('"query" must be an object.', { field: 'query' });
    const schema = await this.#app.schema.get();
    const service = new ItemsService(collection, { ...this.#app.servicesContext(this.accountability()), schema });
    const parsed = parseQuery(query as Message);
    const readBack = async (keys: Array<string | number>, many: boolean) => {
      const items = await service.readMany(keys, parsed).catch(() => null);
      return many ? items : (items?.[0] ?? null);
    };
    let data: unknown;
    const { data: payload, id, ids } = message;
    if (action === 'read') {
      if (id !== undefined) data = await service.readOne(id as string, parsed);
      else if (Array.isArray(ids)) data = await service.readMany(ids as string[], parsed);
      else data = (await service.readByQuery(parsed)).data;
    } else if (action === 'create') {
      if (Array.isArray(payload)) data = await readBack(await service.createMany(payload), true);
      else data = await readBack([await service.createOne(payload)], false);
    } else if (action === 'update') {
      if (id !== undefined) data = await readBack([await service.updateOne(id as string, payload)], false);
      else if (Array.isArray(ids)) data = await readBack(await service.updateMany(ids as string[], payload), true);
      else if (Array.isArray(payload)) data = await readBack(await service.updateBatch(payload), true);
      else throw new InvalidPayloadError('"id" or "ids" is required to update.', { field: 'id' });
    } else if (action === 'delete') {
      if (id !== undefined) data = await service.deleteOne(id as string);
      else if (Array.isArray(ids)) data = await service.deleteMany(ids as string[]);
      else if (message.query !== undefined) data = await service.deleteByQuery(parsed);
      else throw new InvalidPayloadError('"id", "ids" or "query" is required to delete.', { field: 'id' });
    } else throw new InvalidPayloadError('"action" must be create, read, update or delete.', { field: 'action' });
    this.send({ type: 'items', data, ...(uid !== undefined ? { uid } : {}) });
  }
}
