import { WebSocket } from 'ws';

type Message = Record<string, any>;

/** A test WebSocket client that queues what the server sends and waits for the next matching message. */
export interface TestSocket {
  ws: WebSocket;
  send(message: Message): void;
  /** The next message matching `match` (earlier non-matching ones stay queued); fails after `timeoutMs`. */
  next(match?: (message: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /**
   * Fails if a matching message came. `settled` resolves once the server has sent everything the change
   * under test could make it send (e.g. the hub's idle() after a later change was seen); then a ping's
   * pong, sent after those on the same connection, proves they have all arrived. No waiting on the clock.
   */
  nothing(match: (message: Message) => boolean, settled: () => Promise<void>): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** `answerPings` (default true) answers the server's heartbeat pings with pongs instead of queueing them. */
export async function openSocket(url: string, options: { headers?: Record<string, string>; answerPings?: boolean } = {}): Promise<TestSocket> {
  const ws = new WebSocket(url, { headers: options.headers });
  const queue: Message[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (raw) => {
    const message = JSON.parse(raw.toString());
    if (message.type === 'ping' && options.answerPings !== false) return ws.send(JSON.stringify({ type: 'pong' }));
    queue.push(message);
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let flushes = 0;
  const take = (match: (message: Message) => boolean) => {
    const index = queue.findIndex(match);
    return index === -1 ? undefined : queue.splice(index, 1)[0];
  };
  return {
    ws,
    closed,
    send: (message) => ws.send(JSON.stringify(message)),
    next: (match = () => true, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const found = take(match);
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; queued: ${JSON.stringify(queue)}`));
        }, timeoutMs);
        const check = () => {
          const message = take(match);
          if (!message) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(message);
        };
        waiters.add(check);
      }),
    nothing: async function (this: TestSocket, match, settled) {
      await settled();
      const uid = `flush-${++flushes}`;
      ws.send(JSON.stringify({ type: 'ping', uid }));
      await this.next((message) => message.type === 'pong' && message.uid === uid);
      const found = queue.find(match);
      if (found) throw new Error(`unexpected message ${JSON.stringify(found)}`);
    },
    close: async () => {
      if (ws.readyState !== ws.CLOSED) ws.close();
      await closed;
    },
  };
}

/** The HTTP status a server answers a WebSocket upgrade with (101 when it opened). */
export function upgradeStatus(target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(target, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (error) => {
      if (ws.readyState !== ws.CLOSED) reject(error);
    });
  });
}
