/**
 * Micro-benchmarks behind the optimisation candidates in docs/performance.md (no database needed):
 *   node bench/micro.ts
 * Each line is the mean cost of one call on this machine.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { jwtVerify } from 'jose';
import { signAccessToken, verifyAccessToken } from '../server/auth/access-token.ts';
import { deriveKey } from '../server/auth/secret-keys.ts';
import { createLogger } from '../server/logger.ts';
import { article, random } from './data.ts';

async function time(name: string, fn: () => unknown, runs = 20_000): Promise<number> {
  for (let i = 0; i < Math.min(2000, runs); i++) await fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const us = ((performance.now() - started) / runs) * 1000;
  process.stdout.write(`${us.toFixed(1).padStart(9)} µs  ${name}\n`);
  return us;
}

process.stdout.write('JWT (HS256) verification per request:\n');
const key = deriveKey('bench-secret-0123456789abcdefghijklmnopqrstuvwxyz', 'access-token');
const claims = { id: '3f1c1c8e-8a43-4b51-9f0a-0e3c2b7b8c11', role: '9d0b5d6e-0c1a-4d7e-8a43-1f2e3d4c5b6a', app_access: true, admin_access: true, session: 'x'.repeat(64) };
const token = await signAccessToken(claims, key, 3_600_000);
const keyObject = createSecretKey(key);
await time('verifyAccessToken today (jose jwtVerify, Uint8Array key: WebCrypto import + HMAC job per call)', () => verifyAccessToken(token, key));
await time('jose jwtVerify with a KeyObject created once', () => jwtVerify(token, keyObject, { issuer: 'tessera', algorithms: ['HS256'] }));
const [header, payload, signature] = token.split('.') as [string, string, string];
await time('node:crypto createHmac + timingSafeEqual + JSON.parse (synchronous)', () => {
  const mac = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== mac.length || !timingSafeEqual(given, mac)) throw new Error('bad signature');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
});
const verified = new Map([[token, { claims, exp: Date.now() + 900_000 }]]);
await time('cache hit: Map<token, claims> + expiry check', () => {
  const hit = verified.get(token);
  return hit && hit.exp > Date.now() ? hit.claims : null;
});

process.stdout.write('\nResponse body of 100 articles (list_100, filter, search), per request:\n');
const rand = random(7);
const rows = Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: i + 1, ...article(rand, [1, 2, 3]) }));
await time('pg json column: JSON.parse of 100 rows (what pg-types does for `data`)', () => rows.map((row) => JSON.parse(row)), 5000);
const parsed = rows.map((row) => JSON.parse(row));
await time('Koa: JSON.stringify({ data: rows })', () => JSON.stringify({ data: parsed }), 5000);
await time('pass-through: `{"data":[` + rows.join(",") + `]}` (select data::text)', () => `{"data":[${rows.join(',')}]}`, 5000);

process.stdout.write('\nLogging at LOG_LEVEL=warn, per request:\n');
const logger = createLogger({ level: 'warn', style: 'raw' }, { write: () => true } as unknown as NodeJS.WritableStream);
await time('logger.child({ requestId }) + .info(…) (disabled level)', () => logger.child({ requestId: 'abc' }).info({ method: 'GET', url: '/items/articles', status: 200, ms: 1.2 }, 'request'));
await time('logger.isLevelEnabled("info") check only', () => logger.isLevelEnabled('info'));
