import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A real HTTP server on 127.0.0.1 that records every call; `failures[path]` answers that many next calls to the path 500. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  failures: Record<string, number>;
  /** Resolves once `count` calls (optionally on one path) arrived; rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let server: Server;
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    failures: {},
    async waitFor(count, path, timeoutMs = 15_000) {
      const started = Date.now();
      for (;;) {
        const matching = received.filter((call) => path === undefined || call.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() - started > timeoutMs) throw new Error(`expected ${count} calls${path ? ` to ${path}` : ''}, got ${matching.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: text ? JSON.parse(text) : null });
      if ((receiver.failures[req.url!] ?? 0) > 0) {
        receiver.failures[req.url!]!--;
        res.writeHead(500).end('receiver down');
      } else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
