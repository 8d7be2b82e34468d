import { createAppContext } from '../../../server/app-context.ts';
import { openDatabase } from '../../../server/database/database.ts';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createLogger } from '../../../server/logger.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** The test app listening, and a second instance on its database and configuration (Redis included) listening too. */
export interface TwoServers {
  first: RunningServer;
  second: RunningServer;
  /** Closes the second instance (server, context, database), then the first server; the test app stays open. */
  close(): Promise<void>;
}

/** Starts both servers of `t`'s configuration, as two instances behind a load balancer; needs HOST and PORT in its env. */
export async function listenTwice(t: TestApp): Promise<TwoServers> {
  const first = await listen(t.context);
  const config = t.context.config;
  const database = await openDatabase(config, createLogger(config.log));
  const context = createAppContext(config, createLogger(config.log), database);
  await context.ready;
  const second = await listen(context);
  return {
    first,
    second,
    async close() {
      await second.close();
      await context.dispose();
      await database.close();
      await first.close();
    },
  };
}
