import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../../helpers/postgres.ts';
import { packageVersion } from '../../../server/version.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('server endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /server/ping with pong as text/html, as Directus does (issue 31)', async () => {
    const response = await t.request.get('/server/ping').expect(200);
    expect(response.text).toBe('pong');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('reports health ok: the status to anyone, the checks, release and instance to administrators (as Directus)', async () => {
    const anonymous = await t.request.get('/server/health').expect(200);
    expect(anonymous.body).toEqual({ status: 'ok' });
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const admin = await t.request.get('/server/health').set('Authorization', `Bearer ${await t.login()}`).expect(200);
    expect(admin.body).toEqual({ status: 'ok', releaseId: packageVersion(), serviceId: `${hostname()}:${process.pid}`, checks: { database: { status: 'ok', responseTime: expect.any(Number) } } });
  });

  it('shows public project info to anyone and more to admins', async () => {
    const anonymous = await t.request.get('/server/info').expect(200);
    expect(anonymous.body.data.project).toMatchObject({ project_name: 'Tessera', default_language: 'en-US' });
    expect(anonymous.body.data.tessera).toBeUndefined();
    // Directus's shape: the admin's collaborative editing opens /websocket only when it is served.
    expect(anonymous.body.data.websocket).toEqual({ rest: { authentication: 'handshake', path: '/websocket' } });

    const token = await t.login();
    const admin = await t.request.get('/server/info').set('Authorization', `Bearer ${token}`).expect(200);
    expect(admin.body.data.tessera.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(admin.body.data.database.embedded).toBe(false);
    expect(admin.body.data.email).toEqual({ transport: expect.stringMatching(/^(ses|smtp|outbox)$/) });
    expect(anonymous.body.data.email).toBeUndefined();
  });

  it('answers unknown routes with 404 ROUTE_NOT_FOUND in the error envelope', async () => {
    const response = await t.request.get('/no/such/route').expect(404);
    expect(response.body).toEqual({ errors: [{ message: "Route /no/such/route doesn't exist.", extensions: { code: 'ROUTE_NOT_FOUND' } }] });
  });

  it('gives every response a request id and keeps a safe incoming one', async () => {
    const generated = await t.request.get('/server/ping');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.request.get('/server/ping').set('X-Request-Id', 'trace-42');
    expect(kept.headers['x-request-id']).toBe('trace-42');
    const replaced = await t.request.get('/server/ping').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('rejects malformed JSON with 400 INVALID_PAYLOAD', async () => {
    const response = await t.request.post('/auth/login').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });

  it('serves a placeholder admin page and redirects / to /admin/', async () => {
    await t.request.get('/').expect(302).expect('Location', '/admin/');
    const page = await t.request.get('/admin/').expect(200);
    expect(page.text).toContain('Tessera');
    await t.request.get('/admin/content/articles').expect(200);
  });
});

describe('body limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ MAX_PAYLOAD_SIZE: '1kb' });
  });
  afterAll(() => t.close());

  it('answers a body over MAX_PAYLOAD_SIZE with 413 CONTENT_TOO_LARGE', async () => {
    const response = await t.request.post('/auth/login').send({ email: 'a@b.co', password: 'x'.repeat(2048) }).expect(413);
    expect(response.body.errors[0].extensions.code).toBe('CONTENT_TOO_LARGE');
  });

  it('accepts a body under the limit', async () => {
    await t.request.post('/auth/login').send({ email: 'nobody@example.com', password: 'short-enough' }).expect(401);
  });
});

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ENABLED: 'true', CORS_ORIGIN: 'https://app.example.com' });
  });
  afterAll(() => t.close());

  it('allows configured origins and no others', async () => {
    const allowed = await t.request.options('/server/info').set('Origin', 'https://app.example.com').set('Access-Control-Request-Method', 'GET');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await t.request.get('/server/info').set('Origin', 'https://evil.example.com');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with status error', async () => {
    const t = await createTestApp();
    try {
      await t.request.get('/server/health').expect(200);
      await adminQuery(`drop database "${t.testDatabase.name}" with (force)`);
      const response = await t.request.get('/server/health').expect(503);
      expect(response.body).toEqual({ status: 'error' });
      // Which check failed: /server/ready shows its checks to orchestrators without a token.
      expect((await t.request.get('/server/ready').expect(503)).body.checks.database.status).toBe('error');
    } finally {
      await t.close();
    }
  });
});
