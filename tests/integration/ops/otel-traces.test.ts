import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

const READY = /Admin:\s+http:\/\/localhost:(\d+)\/admin/;
const ADMIN = { email: 'otel@example.com', password: 'otel-password-1' };
/** A filter value the read sends: a statement parameter, so it must appear in no span attribute. */
const SECRET_VALUE = 'needle-value-7f3a91';
const COLLECTOR_KEY = 'collector-key-5521';
/** An author id that does not exist: the foreign key refuses it. */
const MISSING_AUTHOR = 987_654_321;

/** An OTLP attribute as the JSON encoding writes it. */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}

/** An exported span, as OTLP/HTTP JSON carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  status?: { code?: number };
}

/** One POST the receiver took: its headers, the resource's service.name and its spans. */
interface Export {
  headers: IncomingHttpHeaders;
  serviceName: string | undefined;
  spans: OtlpSpan[];
}

/** A real OTLP/HTTP receiver: keeps JSON posts to /v1/traces decoded and protobuf posts as they came. */
async function startReceiver(): Promise<{ server: Server; url: string; exports: Export[]; protobufBodies: Buffer[] }> {
  const exports: Export[] = [];
  const protobufBodies: Buffer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const type = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !/^application\/(json|x-protobuf)/.test(type)) {
        response.writeHead(400).end();
        return;
      }
      if (type.startsWith('application/x-protobuf')) {
        protobufBodies.push(Buffer.concat(chunks));
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        return;
      }
      for (const resourceSpans of JSON.parse(Buffer.concat(chunks).toString('utf8')).resourceSpans ?? []) {
        const serviceName = (resourceSpans.resource?.attributes as OtlpAttribute[] | undefined)?.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
        exports.push({ headers: request.headers, serviceName, spans: (resourceSpans.scopeSpans ?? []).flatMap((scope: { spans?: OtlpSpan[] }) => scope.spans ?? []) });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports, protobufBodies };
}

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((item) => item.key === key)?.value;
  if (!value) return undefined;
  return value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue));
}

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-otel-'));
  beforeAll(async () => {
    database = await createMigratedDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.server.close(resolve));
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Runs `tessera start` with `env` added, sets up authors ← articles (m2o) and an article whose title is
   * SECRET_VALUE, reads it with its author under the caller's traceparent, and stops the server with SIGTERM.
   */
  async function tracedRun(env: Record<string, string>): Promise<{ traceId: string; parentId: string; exportsBeforeStop: number }> {
    const server = spawnCli(['start'], {
      cwd: dir,
      env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env },
    });
    const url = `http://127.0.0.1:${(await server.waitFor(READY))[1]}`;
    const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${url}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await response.json()) as { data: any };
      expect(response.status, JSON.stringify(json)).toBe(200);
      return json.data;
    };
    const token = (await call('POST', '/auth/login', ADMIN)).access_token as string;
    const auth = { authorization: `Bearer ${token}` };
    const collections = (await call('GET', '/collections', undefined, auth)) as Array<{ collection: string }>;
    if (!collections.some((item) => item.collection === 'articles')) {
      await call('POST', '/collections', { collection: 'authors', fields: [{ field: 'name', type: 'string' }] }, auth);
      await call('POST', '/collections', { collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'author', type: 'integer' }] }, auth);
      await call('POST', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors' }, auth);
      const author = await call('POST', '/items/authors', { name: 'Ada' }, auth);
      await call('POST', '/items/articles', { title: SECRET_VALUE, author: author.id }, auth);
    }

    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const filter = encodeURIComponent(JSON.stringify({ title: { _eq: SECRET_VALUE } }));
    const read = await call('GET', `/items/articles?fields=title,author.name&filter=${filter}`, undefined, { ...auth, traceparent: `00-${traceId}-${parentId}-01` });
    expect(read).toEqual([{ title: SECRET_VALUE, author: { name: 'Ada' } }]);
    // A write PostgreSQL refuses: its message quotes the value (`Key (author)=(…)`), which no span may carry.
    const refused = await fetch(`${url}/items/articles`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ title: 'dangling', author: MISSING_AUTHOR }) });
    expect(refused.status).toBe(400);
    const exportsBeforeStop = receiver.exports.length + receiver.protobufBodies.length;
    expect(await server.stop('SIGTERM')).toBe(0);
    return { traceId, parentId, exportsBeforeStop };
  }

  it('sends a server span per request (route template, incoming traceparent as parent) with its statements as children, values left out, flushed at stop', { timeout: 120_000 }, async () => {
    // An export every 10 minutes: whatever arrives was sent by the graceful stop's flush.
    const { traceId, parentId, exportsBeforeStop } = await tracedRun({ OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`, OTEL_SERVICE_NAME: 'tessera-otel-test' });
    expect(exportsBeforeStop).toBe(0);
    const spans = receiver.exports.flatMap((item) => item.spans);
    const inTrace = spans.filter((span) => span.traceId === traceId);
    const requests = inTrace.filter((span) => span.kind === 2);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.parentSpanId).toBe(parentId);
    expect(request!.name).toBe('GET /items/:collection');
    expect(attribute(request!, 'http.route')).toBe('/items/:collection');
    expect(attribute(request!, 'http.request.method')).toBe('GET');
    expect(attribute(request!, 'http.response.status_code')).toBe(200);
    expect(attribute(request!, 'url.path')).toBe('/items/articles');

    const statements = inTrace.filter((span) => span.kind === 3);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.parentSpanId).toBe(request!.spanId);
      expect(attribute(statement, 'db.system.name')).toBe('postgresql');
    }
    const texts = statements.map((statement) => String(attribute(statement, 'db.query.text')));
    const articleRead = texts.find((text) => text.includes('"articles"') && text.includes('"authors"'));
    expect(articleRead, texts.join('\n')).toMatch(/\$1/);

    // The refused write: its request span says 400 (no error: the client's fault), its statement failed with SQLSTATE 23503.
    const refusedRequest = spans.find((span) => span.kind === 2 && span.name === 'POST /items/:collection' && attribute(span, 'http.response.status_code') === 400);
    expect(refusedRequest?.status?.code ?? 0).toBe(0);
    const failed = spans.filter((span) => span.parentSpanId === refusedRequest?.spanId && span.status?.code === 2);
    expect(failed.map((span) => attribute(span, 'db.response.status_code'))).toEqual(['23503']);

    // Other requests are traces of their own, named by template (no ids, no collection names).
    expect(spans.filter((span) => span.kind === 2).map((span) => span.name)).toEqual(expect.arrayContaining(['POST /auth/login', 'POST /collections', 'POST /items/:collection']));
    for (const span of spans) {
      for (const item of span.attributes) {
        expect(JSON.stringify(item.value), `${span.name} ${item.key}`).not.toContain(SECRET_VALUE);
        expect(JSON.stringify(item.value), `${span.name} ${item.key}`).not.toContain(String(MISSING_AUTHOR));
      }
      expect(span.name).not.toContain(SECRET_VALUE);
    }
    expect(receiver.exports.every((item) => item.serviceName === 'tessera-otel-test' && item.headers['x-collector-key'] === COLLECTOR_KEY)).toBe(true);
  });

  it('sends OTLP protobuf by default (OTEL_EXPORTER_OTLP_PROTOCOL unset)', { timeout: 120_000 }, async () => {
    receiver.protobufBodies.length = 0;
    const { traceId, parentId } = await tracedRun({});
    // Protobuf keeps ids as raw bytes and strings as UTF-8: the request's span is in there, values are not.
    const body = Buffer.concat(receiver.protobufBodies);
    expect(body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(body.includes(Buffer.from(parentId, 'hex'))).toBe(true);
    expect(body.includes(Buffer.from('GET /items/:collection'))).toBe(true);
    expect(body.includes(Buffer.from('db.query.text'))).toBe(true);
    expect(body.includes(Buffer.from(SECRET_VALUE))).toBe(false);
  });
});
