import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { createAppContext } from '../../server/app-context.ts';
import { openDatabase } from '../../server/database/database.ts';
import { createLogger } from '../../server/logger.ts';
import { closeInSteps } from './close-report.ts';
import type { TestApp } from './test-app.ts';

/** Another Tessera instance on the first one's database and configuration (Redis included), as behind a load balancer. */
export interface SecondInstance {
  request: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

export async function startSecondInstance(first: TestApp): Promise<SecondInstance> {
  const config = first.context.config;
  const database = await openDatabase(config, createLogger(config.log));
  const context = createAppContext(config, createLogger(config.log), database);
  await context.ready;
  const app = createApp(context);
  return {
    request: supertest(app.callback()),
    async close() {
      await closeInSteps('second instance', [
        ['app', () => app.close()],
        ['context', () => context.dispose()],
        ['database', () => database.close()],
      ]);
    },
  };
}
