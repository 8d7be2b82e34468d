import { PassThrough } from 'node:stream';
import Koa from 'koa';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/logger.ts';
import { redactUrl, requestLogger } from '../../../server/middleware/request-logger.ts';

const SECRET = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl';

/** An app with only the request logger, writing JSON lines into `lines`. */
function loggedApp(level = 'info', handler: Koa.Middleware = (ctx) => void (ctx.body = 'ok')): { request: ReturnType<typeof supertest>; lines: string[] } {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const logger = createLogger({ level, style: 'raw' } as Parameters<typeof createLogger>[0], stream);
  const app = new Koa();
  app.use((ctx, next) => {
    ctx.state.requestId = 'req-1';
    return next();
  });
  app.use(requestLogger(logger));
  app.use(handler);
  return { request: supertest(app.callback()), lines };
}

describe('request log redaction', () => {
  it("at LOG_LEVEL=warn writes no request line, and a handler's warning still carries the request id", async () => {
    const { request, lines } = loggedApp('warn', (ctx) => {
      if (ctx.path === '/warns') (ctx.state.logger as { warn: (details: object, message: string) => void }).warn({ detail: 1 }, 'careful');
      ctx.body = 'ok';
    });
    await request.get('/quiet?token=x').expect(200);
    await request.get('/warns').expect(200);
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ requestId: 'req-1', msg: 'careful', detail: 1 })]);
  });

  it('writes no token, code or password from the query string or headers into the log line', async () => {
    const { request, lines } = loggedApp();
    for (const path of [
      `/items/articles?access_token=${SECRET}&fields=id`,
      `/assets/abc?width=10&ACCESS_TOKEN=${SECRET}`,
      `/admin/reset-password?token=${SECRET}`,
      `/admin/accept-invite?token[]=${SECRET}`,
      `/auth/callback/email?token=${SECRET}&email=a%40example.com&callbackUrl=%2Fadmin`,
      `/auth/login/keycloak/callback?code=${SECRET}&state=${SECRET}&iss=https%3A%2F%2Fid.example.com`,
      `/auth/refresh?refresh_token=${SECRET}`,
      `/x?acc%65ss_token=${SECRET}`,
    ]) {
      await request.get(path).set('Authorization', `Bearer ${SECRET}`).set('Cookie', `tessera_session_token=${SECRET}`).expect(200);
    }
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(line).not.toContain(SECRET);
    const urls = lines.map((line) => JSON.parse(line).url as string);
    expect(urls[0]).toBe('/items/articles?access_token=[redacted]&fields=id');
    expect(urls[1]).toBe('/assets/abc?width=10&ACCESS_TOKEN=[redacted]');
    expect(urls[4]).toBe('/auth/callback/email?token=[redacted]&email=a%40example.com&callbackUrl=%2Fadmin');
    expect(urls[5]).toBe('/auth/login/keycloak/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid.example.com');
  });

  it('leaves other URLs as they are', () => {
    expect(redactUrl('/items/articles')).toBe('/items/articles');
    expect(redactUrl('/items/articles?filter[title][_eq]=a&sort=-id')).toBe('/items/articles?filter[title][_eq]=a&sort=-id');
    expect(redactUrl('/items/a?tokens=1&token')).toBe('/items/a?tokens=1&token');
    expect(redactUrl('/x?%E0%A4%A=1&token=s')).toBe('/x?%E0%A4%A=1&token=[redacted]');
  });
});
