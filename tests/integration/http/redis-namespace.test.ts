import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisNamespace } from '../../../server/redis/redis-client.ts';
import { SCHEMA_CHANNEL } from '../../../server/schema/schema-sync.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('two projects on one Redis', () => {
  let one: TestApp;
  let other: TestApp;
  let listener: Redis;
  const heard: string[] = [];

  beforeAll(async () => {
    [one, other] = await Promise.all([createTestApp({ REDIS_URL }), createTestApp({ REDIS_URL })]);
    listener = new Redis(REDIS_URL);
    listener.on('pmessage', (_pattern, channel) => heard.push(channel));
    await listener.psubscribe(`*${SCHEMA_CHANNEL}`);
  });
  afterAll(async () => {
    listener.disconnect();
    await Promise.all([one.close(), other.close()]);
  });

  it("announce schema changes on their own database's channel only", async () => {
    const auth = { Authorization: `Bearer ${await one.login()}` };
    await one.request.post('/collections').set(auth).send({ collection: 'mine', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const mine = redisNamespace(one.testDatabase.url, '') + SCHEMA_CHANNEL;
    const theirs = redisNamespace(other.testDatabase.url, '') + SCHEMA_CHANNEL;
    expect(mine).not.toBe(theirs);
    await expect.poll(() => heard).toContain(mine);
    expect(heard).not.toContain(theirs);
  });
});
