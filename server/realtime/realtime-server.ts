import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../app-context.ts';
import type { GraphQLWebSocket } from '../graphql/graphql-ws.ts';
import { lazyModule } from '../lazy-module.ts';
import type { CollabHub } from './collab-hub.ts';
import { upgradeCaller, type SocketCaller } from './realtime-auth.ts';
import { RealtimeConnection } from './realtime-connection.ts';
import { createRealtimeHub, type RealtimeHub } from './realtime-hub.ts';

/** graphql-ws (subprotocol `graphql-transport-ws`) shares the HTTP endpoint's path, as in Directus. */
export const GRAPHQL_WS_PATH = '/graphql';

/** The realtime endpoint attached to an HTTP server. */
export interface RealtimeServer {
  hub: RealtimeHub;
  /** Open connections of this instance. */
  connections(): number;
  /** Closes every socket (1001) and the Redis connections. */
  close(): Promise<void>;
}

/**
 * Serves `WEBSOCKETS_REST_PATH` (default `/websocket`, Directus's realtime protocol) and `/graphql` (graphql-ws) on the server's upgrade
 * requests, with one caller resolution (token, else session cookie) and one per-user connection limit;
 * other upgrades are refused.
 */
export function attachRealtime(server: Server, app: AppContext): RealtimeServer {
  const settings = app.config.realtime;
  const hub = createRealtimeHub(app);
  // graphql and graphql-ws load with the first /graphql socket, not at start-up (docs/performance.md).
  let graphqlWs: GraphQLWebSocket | undefined;
  const loadGraphqlWs = lazyModule(async () => (graphqlWs = (await import('../graphql/graphql-ws.ts')).createGraphQLWebSocket(app, hub)));
  // Collaborative editing (its Redis connections and heartbeat) starts with the first `collab` message.
  let collab: CollabHub | undefined;
  const loadCollab = lazyModule(async () => {
    const created = (await import('./collab-hub.ts')).createCollabHub(app);
    hub.onChange((change) => created.itemChanged(change));
    await created.ready;
    return (collab = created);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: settings.maxMessageSize });
  const perIdentity = new Map<string, number>();
  const sockets = new Set<WebSocket>();

  const count = (identity: string, delta: number) => {
    const next = (perIdentity.get(identity) ?? 0) + delta;
    if (next <= 0) perIdentity.delete(identity);
    else perIdentity.set(identity, next);
  };
  const claim = (identity: string) => {
    if ((perIdentity.get(identity) ?? 0) >= settings.maxConnectionsPerUser) return false;
    count(identity, 1);
    return true;
  };

  const refuse = (socket: Duplex, status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== settings.path && url.pathname !== GRAPHQL_WS_PATH) return refuse(socket, 404, 'Not Found');
    const origin = { ip: request.socket.remoteAddress ?? null, userAgent: request.headers['user-agent'] ?? null, origin: request.headers.origin ?? null };
    void (async () => {
      let caller: SocketCaller | null;
      try {
        caller = await upgradeCaller(app, request, url, origin);
      } catch {
        return refuse(socket, 401, 'Unauthorized');
      }
      if (url.pathname === GRAPHQL_WS_PATH) return upgradeGraphQL(await loadGraphqlWs(), request, socket, head, origin, caller);
      if (!caller && settings.auth === 'strict') return refuse(socket, 401, 'Unauthorized');
      wss.handleUpgrade(request, socket, head, (ws) => open(ws, origin, caller));
    })().catch(() => refuse(socket, 500, 'Internal Server Error'));
  };

  const upgradeGraphQL = (graphql: GraphQLWebSocket, request: IncomingMessage, socket: Duplex, head: Buffer, origin: RealtimeConnectionOrigin, caller: SocketCaller | null) => {
    const identity = caller?.accountability.user ? `user:${caller.accountability.user}` : `ip:${origin.ip ?? ''}`;
    graphql.handleUpgrade(request, socket, head, origin, caller, (ws) => {
      if (!claim(identity)) {
        ws.close(1013, 'too many connections');
        return false;
      }
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        count(identity, -1);
      });
      return true;
    });
  };

  const open = (ws: WebSocket, origin: RealtimeConnectionOrigin, caller: SocketCaller | null) => {
    const connection = new RealtimeConnection(ws, app, hub, origin, caller, (previous, next) => {
      if (previous === next) return true;
      if (!claim(next)) return false;
      count(previous, -1);
      return true;
    }, loadCollab);
    if (!claim(connection.identity)) {
      ws.close(1013, 'too many connections');
      return;
    }
    sockets.add(ws);
    let alive = true;
    const heartbeat = settings.heartbeatMs > 0
      ? setInterval(() => {
          if (!alive) return ws.terminate();
          alive = false;
          connection.send({ type: 'ping' });
        }, settings.heartbeatMs)
      : undefined;
    const authTimer = settings.auth !== 'public' && !caller ? setTimeout(() => {
          if (connection.authenticated) return;
          connection.send({ type: 'auth', status: 'error', error: { code: 'AUTH_TIMEOUT', message: 'Authentication timed out.' } });
          ws.close(1008, 'authentication timed out');
        }, settings.authTimeoutMs) : undefined;
    // One message at a time, in the order sent: a subscribe right behind an auth (as @directus/sdk sends them)
    // must see the auth's result. handle() answers its own errors, so the chain never rejects.
    let handled = Promise.resolve();
    ws.on('message', (raw, isBinary) => {
      alive = true;
      let message: unknown;
      try {
        message = JSON.parse(isBinary ? '' : raw.toString());
      } catch {
        connection.send({ type: 'error', status: 'error', error: { code: 'INVALID_PAYLOAD', message: 'Messages must be JSON objects.' } });
        return;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        connection.send({ type: 'error', status: 'error', error: { code: 'INVALID_PAYLOAD', message: 'Messages must be JSON objects.' } });
        return;
      }
      // The timeout is for the `auth` message to arrive (as in Directus): checking a password may take longer.
      if ((message as Record<string, unknown>).type === 'auth') clearTimeout(authTimer);
      handled = handled.then(() => connection.handle(message as Record<string, unknown>));
    });
    // ws reports protocol violations (an oversized or malformed frame) here, then closes the socket itself.
    ws.on('error', (error) => app.logger.debug({ err: error }, 'websocket closed on a protocol error'));
    ws.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(authTimer);
      connection.close();
      sockets.delete(ws);
      count(connection.identity, -1);
    });
  };

  server.on('upgrade', onUpgrade);
  return {
    hub,
    connections: () => sockets.size,
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of sockets) ws.close(1001, 'server shutting down');
      const deadline = Date.now() + 1_000;
      while (sockets.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const ws of sockets) ws.terminate();
      wss.close();
      await graphqlWs?.close();
      await collab?.close();
      await hub.close();
    },
  };
}

type RealtimeConnectionOrigin = { ip: string | null; userAgent: string | null; origin: string | null };
