import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { createRateLimit, type RateLimit } from '../../../server/middleware/rate-limit.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

let t: TestApp;
let token: string;
const limiters: RateLimit[] = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '3', RATE_LIMITER_DURATION: '30s' });
  token = await t.login();
});
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
  await t.close();
});

/** The test app's Koa app with a limiter of its own (a fresh budget), as `listen()` wires it. */
function limitedApp(env: Partial<{ store: 'redis' | 'memory'; redisUrl: string }> = {}, keyPrefix = `test:rl:${randomUUID()}`) {
  const config = {
    ...t.context.config,
    redis: { url: env.redisUrl ?? t.context.config.redis.url },
    rateLimiter: { ...t.context.config.rateLimiter, store: env.store ?? 'memory' },
  };
  const rateLimit = createRateLimit(config, t.context.logger, { keyPrefix });
  limiters.push(rateLimit);
  return { request: supertest(createApp(t.context, { rateLimit }).callback()), keyPrefix, rateLimit };
}

function expectExceeded(response: supertest.Response): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ errors: [{ message: expect.stringContaining('Too many requests'), extensions: { code: 'REQUESTS_EXCEEDED', limit: 3, window: 30 } }] });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(30);
}

describe('rate limiter (memory store)', () => {
  it('answers the request over RATE_LIMITER_POINTS with 429 REQUESTS_EXCEEDED and Retry-After', async () => {
    const { request } = limitedApp();
    for (let i = 0; i < 3; i++) expect((await request.get('/server/ping')).status).toBe(200);
    expectExceeded(await request.get('/server/ping'));
    // Rejected before the body parser: a large body is not read.
    expectExceeded(await request.post('/items/anything').send({ big: 'x'.repeat(100_000) }));
  });

  it('counts a signed-in user separately from the anonymous callers at the same address', async () => {
    const { request } = limitedApp();
    for (let i = 0; i < 3; i++) expect((await request.get('/users/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expectExceeded(await request.get('/users/me').set('Authorization', `Bearer ${token}`));
    // Same IP, no credentials: its own budget.
    for (let i = 0; i < 3; i++) expect((await request.get('/server/ping')).status).toBe(200);
    expectExceeded(await request.get('/server/ping'));
  });

  it('charges rejected credentials to the address, so guessing tokens is limited', async () => {
    const { request } = limitedApp();
    for (let i = 0; i < 3; i++) expect((await request.get('/users/me').set('Authorization', 'Bearer not-a-token')).status).toBe(401);
    expectExceeded(await request.get('/users/me').set('Authorization', 'Bearer not-a-token'));
    expectExceeded(await request.get('/server/ping'));
    // A valid token is its user's budget, untouched.
    expect((await request.get('/users/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });

  it('is off unless RATE_LIMITER_ENABLED (createApp without a limiter)', async () => {
    for (let i = 0; i < 5; i++) expect((await t.request.get('/server/ping')).status).toBe(200);
  });
});

describe('rate limiter (Redis store)', () => {
  it('shares one budget between instances through Redis', async () => {
    const keyPrefix = `test:rl:${randomUUID()}`;
    const first = limitedApp({ store: 'redis', redisUrl: REDIS_URL }, keyPrefix);
    const second = limitedApp({ store: 'redis', redisUrl: REDIS_URL }, keyPrefix);
    await Promise.all(limiters.slice(-2).map((limiter) => limiter.ready));
    expect((await first.request.get('/server/ping')).status).toBe(200);
    expect((await second.request.get('/server/ping')).status).toBe(200);
    expect((await first.request.get('/server/ping')).status).toBe(200);
    expectExceeded(await second.request.get('/server/ping'));

    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${keyPrefix}:*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/:ip:/);
      expect(Number(await redis.get(keys[0]!))).toBe(4);
      expect(await redis.ttl(keys[0]!)).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('keeps limiting in memory while Redis is unreachable', async () => {
    const { request, rateLimit } = limitedApp({ store: 'redis', redisUrl: 'redis://127.0.0.1:1' });
    await rateLimit.ready;
    for (let i = 0; i < 3; i++) expect((await request.get('/server/ping')).status).toBe(200);
    expectExceeded(await request.get('/server/ping'));
  });
});
