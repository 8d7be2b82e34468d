import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './app-context.ts';
import { createApp } from './app.ts';

/** A listening HTTP server and how to stop it gracefully. */
export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets open requests finish (up to SHUTDOWN_TIMEOUT), then drops the rest. */
  close(): Promise<void>;
}

/** Serves the app on HOST:PORT. */
export async function listen(context: AppContext): Promise<RunningServer> {
  const server = createServer(createApp(context).callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(context.config.server.port, context.config.server.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), context.config.server.shutdownTimeoutMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
