import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { NoSchemaIntrospectionCustomRule, specifiedRules, type ValidationRule } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../app-context.ts';
import { publicAccountability, type Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError } from '../errors.ts';
import { atExpiry, type ExpiryTimer } from '../realtime/expiry-timer.ts';
import { callerFromToken, type SocketCaller } from '../realtime/realtime-auth.ts';
import type { RealtimeHub, Subscription } from '../realtime/realtime-hub.ts';
import type { GraphQLContext } from './build-schema.ts';
import { createDocumentCache } from './document-cache.ts';
import { formatError } from './graphql-handlers.ts';
import { queryLimitsRule } from './limits.ts';
import { createGraphQLSchemaCache } from './schema-cache.ts';
import type { MutatedPayload, MutationEvent, SubscribeToChanges } from './subscription-fields.ts';

type Origin = Pick<Accountability, 'ip' | 'userAgent' | 'origin'>;

/** What the upgrade learned about a socket before graphql-ws took it over. */
interface SocketState {
  origin: Origin;
  caller: SocketCaller | null;
  subscriptions: number;
  expiry?: ExpiryTimer;
}

/** graphql-ws on `/graphql`: queries, mutations and `<collection>_mutated` subscriptions over one WebSocket. */
export interface GraphQLWebSocket {
  /** `admit` may refuse the opened socket (connection limit): it is then closed and never handed to graphql-ws. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, origin: Origin, caller: SocketCaller | null, admit: (ws: WebSocket) => boolean): void;
  close(): Promise<void>;
}

/**
 * Events of the realtime hub as `_mutated` payloads: one per item, `create`/`update` carrying the item as the
 * subscriber may read it, `delete` (also for an update that moved the item out of its rule) carrying the key.
 */
function hubIterator(hub: RealtimeHub, collection: string, event: MutationEvent | null, fields: string[], primary: string, accountability: () => Accountability, onEnd: () => void): AsyncIterableIterator<MutatedPayload> {
  const queue: MutatedPayload[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const subscription: Subscription = {
    uid: undefined,
    collection,
    query: { fields: [...new Set([...fields, primary])] },
    accountability,
    send: (message) => {
      const kind = message.event as MutationEvent;
      if (event && kind !== event) return;
      const data = message.data as Array<Record<string, unknown> | string | number>;
      for (const entry of data) {
        queue.push(typeof entry === 'object' ? { key: entry[primary] as string | number, event: kind, data: entry } : { key: entry, event: kind, data: null });
      }
      wake?.();
    },
  };
  const remove = hub.add(subscription);
  const finish = () => {
    if (done) return;
    done = true;
    remove();
    onEnd();
    wake?.();
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (queue.length > 0) return { value: queue.shift()!, done: false };
      return { value: undefined, done: true };
    },
    async return() {
      finish();
      return { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      finish();
      throw error;
    },
  };
}

export function createGraphQLWebSocket(app: AppContext, hub: RealtimeHub): GraphQLWebSocket {
  const settings = app.config.realtime;
  const { introspection, maxDepth, maxCost } = app.config.graphql;
  const rules: ValidationRule[] = [...specifiedRules, queryLimitsRule(maxDepth, maxCost), ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const schemaFor = createGraphQLSchemaCache(app);
  const checkDocument = createDocumentCache(rules);
  const states = new WeakMap<object, SocketState>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: settings.maxMessageSize });
  const accountabilityOf = (state: SocketState) => state.caller?.accountability ?? publicAccountability(state.origin);
  const watchExpiry = (state: SocketState, socket: WebSocket) => {
    state.expiry?.cancel();
    const expiresAt = state.caller?.expiresAt;
    if (!expiresAt) return;
    state.expiry = atExpiry(expiresAt, () => socket.close(CloseCode.Forbidden, 'Token expired'));
  };

  const server = useServer<Record<string, unknown> | undefined, { state: SocketState }>(
    {
      // A token in connection_init's payload (`{ access_token }`) signs the socket in, as Directus's graphql-ws does.
      onConnect: async (ctx) => {
        const state = states.get(ctx.extra.socket)!;
        const token = ctx.connectionParams?.access_token;
        if (typeof token === 'string' && token) {
          try {
            state.caller = await callerFromToken(app, token, state.origin);
          } catch {
            return false;
          }
        }
        if (!state.caller && settings.auth === 'strict') return false;
        watchExpiry(state, ctx.extra.socket);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const state = states.get(ctx.extra.socket)!;
        const accountability = accountabilityOf(state);
        const { schema, overview, access } = await schemaFor(accountability, 'items');
        const checked = checkDocument(schema, payload.query);
        if (checked.errors) return checked.errors.map((error) => formatError(error));
        const document = checked.document;
        const subscribe: SubscribeToChanges = (collection, event, fields) => {
          if (state.subscriptions >= settings.maxSubscriptions) {
            throw new InvalidPayloadError(`At most ${settings.maxSubscriptions} subscriptions per connection (WEBSOCKETS_MAX_SUBSCRIPTIONS).`);
          }
          state.subscriptions += 1;
          // The caller as it is now (a later connection_init cannot change it, but the schema read it once).
          return hubIterator(hub, collection, event, fields, overview.collections[collection]!.primary, () => accountability, () => (state.subscriptions -= 1));
        };
        const contextValue: GraphQLContext = { items: { ...app.servicesContext(accountability), schema: overview, access }, subscribe };
        return { schema, document, contextValue, variableValues: payload.variables ?? undefined, operationName: payload.operationName ?? undefined };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error).toJSON()),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((error) => formatError(error).toJSON()) } : undefined),
      onClose: (ctx) => states.get(ctx.extra.socket)?.expiry?.cancel(),
    },
    wss,
    settings.heartbeatMs > 0 ? settings.heartbeatMs : 12_000,
  );

  return {
    handleUpgrade(request, socket, head, origin, caller, admit) {
      wss.handleUpgrade(request, socket, head, (ws) => {
        if (!admit(ws)) return;
        states.set(ws, { origin, caller, subscriptions: 0 });
        wss.emit('connection', ws, request);
      });
    },
    async close() {
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      await server.dispose();
    },
  };
}
