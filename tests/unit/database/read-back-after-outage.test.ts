import Koa from 'koa';
import pg from 'pg';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { respondWithReadBack } from '../../../server/controllers/items-controller.ts';
import { ForbiddenError } from '../../../server/errors.ts';
import { errorHandler } from '../../../server/middleware/error-handler.ts';
import { createLogger } from '../../../server/logger.ts';

/** The error node-postgres gives when the server is gone (nothing listens on port 9). */
async function refusedConnection(): Promise<unknown> {
  const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:9/postgres' });
  return client.connect().then(
    () => null,
    (error: unknown) => error,
  );
}

/** An app whose only route has "written" and then reads back with `read`. */
function appReadingBack(read: () => Promise<unknown>, written?: () => unknown, admin = true) {
  const app = new Koa();
  app.use(errorHandler(createLogger({ level: 'silent', style: 'raw' })));
  app.use(async (ctx) => {
    ctx.state.accountability = { admin };
    await respondWithReadBack(ctx, read, written);
  });
  return supertest(app.callback());
}

describe('answering a committed write whose read-back fails', () => {
  it('answers the written keys, not an error, when the database went away after the commit', async () => {
    const error = await refusedConnection();
    const response = await appReadingBack(() => Promise.reject(error), () => [{ id: 1 }, { id: 2 }]).get('/').expect(200);
    expect(response.body).toEqual({ data: [{ id: 1 }, { id: 2 }] });
  });

  it('answers 204 when there are no keys to give', async () => {
    const error = await refusedConnection();
    await appReadingBack(() => Promise.reject(error)).get('/').expect(204);
  });

  it('still reports other read-back failures', async () => {
    await appReadingBack(() => Promise.reject(new ForbiddenError()), () => [{ id: 1 }]).get('/').expect(403);
  });
});
