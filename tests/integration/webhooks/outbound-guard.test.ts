import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList, refusedAddress } from '../../../server/outbound/address-policy.ts';
import { outboundRequest, OutboundRefusedError } from '../../../server/outbound/outbound-request.ts';

let server: Server;
let port: number;
const hits: string[] = [];
/** Until when /answer-then-stall keeps this whole process busy after answering (0: not at all). */
let stallUntil = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url === '/to-ipv6-loopback') return res.writeHead(302, { location: `http://[::1]:${port}/ok` }).end();
    if (req.url === '/to-private') return res.writeHead(302, { location: 'http://10.255.255.1/ok' }).end();
    if (req.url === '/to-ok') return res.writeHead(307, { location: '/ok' }).end();
    if (req.url === '/big') return res.end('x'.repeat(10_000));
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000);
    if (req.url === '/answer-then-stall') {
      res.end('in time');
      // The process gets no CPU until past the caller's deadline (as a job worker at nice 10 on a saturated
      // machine): the answer waits in the caller's socket while its deadline passes.
      while (Date.now() < stallUntil);
      return;
    }
    res.end('fine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = (path: string, allowed: string[], extra: { host?: string; maxResponseBytes?: number; timeoutMs?: number } = {}) =>
  outboundRequest({ url: `http://${extra.host ?? '127.0.0.1'}:${port}${path}`, method: 'POST', body: '{}', allow: parseAllowList(allowed), timeoutMs: extra.timeoutMs ?? 2_000, maxResponseBytes: extra.maxResponseBytes ?? 1_000 });

describe('address policy', () => {
  const none = parseAllowList([]);
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::ffff:127.0.0.1', 'fe80::1', 'fd00:ec2::254', '100.64.0.1'])('refuses %s without an allow-list', (address) => {
    expect(refusedAddress(address, 'example.test', none)).not.toBeNull();
  });

  it('lets public unicast addresses through', () => {
    expect(refusedAddress('93.184.216.34', 'example.com', none)).toBeNull();
    expect(refusedAddress('2606:2800:220:1:248:1893:25c8:1946', 'example.com', none)).toBeNull();
  });

  it('allows what OUTBOUND_ALLOWED_HOSTS names: an address, a CIDR or a host name', () => {
    const allow = parseAllowList(['127.0.0.1', '10.0.0.0/8', 'hooks.internal']);
    expect(refusedAddress('127.0.0.1', 'x', allow)).toBeNull();
    expect(refusedAddress('::ffff:127.0.0.1', 'x', allow)).toBeNull();
    expect(refusedAddress('10.9.8.7', 'x', allow)).toBeNull();
    expect(refusedAddress('192.168.0.1', 'hooks.internal', allow)).toBeNull();
    expect(refusedAddress('127.0.0.2', 'x', allow)).toContain('loopback');
    expect(refusedAddress('169.254.169.254', 'x', allow)).toContain('linkLocal');
  });
});

describe('outbound requests', () => {
  it('refuses a loopback address before connecting, and calls it once allowed', async () => {
    const before = hits.length;
    await expect(call('/ok', [])).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits.length).toBe(before);
    await expect(call('/ok', ['127.0.0.1'])).resolves.toMatchObject({ status: 200, body: 'fine' });
  });

  it('checks the address a host name resolves to (localhost → loopback)', async () => {
    await expect(call('/ok', [], { host: 'localhost' })).rejects.toThrow(/loopback/);
  });

  it('checks every redirect hop again', async () => {
    await expect(call('/to-ipv6-loopback', ['127.0.0.1'])).rejects.toThrow(/::1 is a loopback address/);
    await expect(call('/to-private', ['127.0.0.1'])).rejects.toThrow(/10\.255\.255\.1 is a private address/);
    await expect(call('/to-ok', ['127.0.0.1'])).resolves.toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/ok` });
  });

  it('caps the response size and the time', async () => {
    await expect(call('/big', ['127.0.0.1'], { maxResponseBytes: 1_000 })).rejects.toThrow(/larger than 1000 bytes/);
    await expect(call('/slow', ['127.0.0.1'], { timeoutMs: 200 })).rejects.toThrow(/Timed out after 200 ms/);
  });

  it('takes an answer that arrived in time although the process could only read it past the deadline (no timeout, so no second delivery)', async () => {
    const timeoutMs = 1_000;
    stallUntil = Date.now() + timeoutMs + 200;
    await expect(call('/answer-then-stall', ['127.0.0.1'], { timeoutMs })).resolves.toMatchObject({ status: 200, body: 'in time' });
    expect(Date.now()).toBeGreaterThan(stallUntil);
  });

  it('refuses URLs that are not http(s)', async () => {
    await expect(outboundRequest({ url: 'file:///etc/passwd', method: 'GET', allow: parseAllowList([]), timeoutMs: 100, maxResponseBytes: 10 })).rejects.toThrow(/http/);
  });
});
