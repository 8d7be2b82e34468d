import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './test-app.ts';

/** A test app served over real HTTP. */
export interface Listening {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  server: Server;
  /** Stops accepting connections and drops idle keep-alive sockets. */
  close(): Promise<void>;
}

/** Serves a TestApp's Koa app with node:http on 127.0.0.1 and a free port. */
export async function listen(t: TestApp): Promise<Listening> {
  const server = createServer(t.app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
