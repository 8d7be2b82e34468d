import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { Generator, VALUES } from './fuzz-generator.ts';

/**
 * Generated hostile input — query strings (bracket syntax, JSON, raw garbage) and JSON bodies (`{query}`
 * batches, item payloads) — sent to item routes and system routes. Whatever the input, the answer is never
 * a 5xx. Seeded: a failure names its seed and index, and FUZZ_SEED=<seed> reruns the same inputs.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let t: TestApp;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const fields = [
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
    { field: 'big', type: 'bigInteger' },
    { field: 'price', type: 'decimal' },
    { field: 'ratio', type: 'float' },
    { field: 'flag', type: 'boolean' },
    { field: 'born', type: 'date' },
    { field: 'seen', type: 'timestamp' },
    { field: 'at', type: 'dateTime' },
    { field: 'clock', type: 'time' },
    { field: 'uid', type: 'uuid' },
    { field: 'data', type: 'json' },
    { field: 'tags', type: 'csv', meta: { special: ['cast-csv'] } },
    { field: 'parent', type: 'integer' },
  ];
  await t.request.post('/collections').set(auth()).send({ collection: 'things', fields }).expect(200);
  await t.request.post('/relations').set(auth()).send({ collection: 'things', field: 'parent', related_collection: 'things', meta: { one_field: 'children' } }).expect(200);
  const items = Array.from({ length: 12 }, (_, i) => ({
    title: `thing ${i}`,
    n: i,
    big: String(2 ** 53 + i),
    price: `${i}.25`,
    ratio: i / 3,
    flag: i % 2 === 0,
    born: `20${10 + i}-01-0${(i % 9) + 1}`,
    seen: `2024-0${(i % 9) + 1}-01T00:00:00Z`,
    at: `2024-0${(i % 9) + 1}-01T12:00:00`,
    clock: `0${i % 10}:30:00`,
    uid: `11111111-1111-4111-8111-1111111111${String(i).padStart(2, '0')}`,
    data: { i, list: [i] },
    tags: ['a', `t${i}`],
    parent: i > 0 ? 1 : null,
  }));
  await t.request.post('/items/things').set(auth()).send(items).expect(200);
}, 60_000);
afterAll(() => t?.close());

type Sent = { method: string; path: string; body?: unknown; status: number; response: unknown };

function context(seed: number, index: number, sent: Sent): string {
  const body = sent.body === undefined ? '' : ` ${JSON.stringify(sent.body)?.slice(0, 400)}`;
  return `seed ${seed} #${index}: ${sent.method} ${sent.path.slice(0, 400)}${body} → ${sent.status} ${JSON.stringify(sent.response).slice(0, 300)}`;
}

const READ_PATHS = ['/items/things', '/items/things/1', '/users', '/roles', '/permissions', '/files', '/folders', '/activity', '/revisions', '/presets', '/shares', '/users/me', '/settings'];

describe(`fuzzed hostile input (seed ${SEED})`, () => {
  it('query strings on item and system routes: never a 5xx', async () => {
    const generate = new Generator(SEED);
    const statuses: Record<number, number> = {};
    for (let index = 0; index < 400; index++) {
      const mild = generate.chance(0.3);
      const path = `${mild || generate.chance(0.5) ? '/items/things' : generate.pick(READ_PATHS)}?${generate.queryString(mild ? generate.mildQuery() : generate.query())}`;
      const caller = generate.chance(0.85) ? auth() : {};
      const response = await t.request.get(path).set(caller);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      expect(response.status, context(SEED, index, { method: 'GET', path, status: response.status, response: response.body })).toBeLessThan(500);
    }
    // Both outcomes occur, or the generator tests nothing.
    expect(statuses[200] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(40);
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(40);
  }, 120_000);

  it('JSON bodies: {query} batches and item payloads on item and system routes, never a 5xx', async () => {
    const generate = new Generator(SEED + 1);
    const statuses: Record<number, number> = {};
    for (let index = 0; index < 250; index++) {
      const kind = generate.int(5);
      let method: 'patch' | 'delete' | 'post';
      let path: string;
      let body: unknown;
      if (kind === 0) {
        method = 'patch';
        path = generate.pick(['/items/things', '/presets', '/shares']);
        body = { query: generate.query(), data: generate.chance(0.7) ? { title: 'fuzz' } : generate.payload() };
      } else if (kind === 1) {
        // Deletes only what a never-matching condition selects, so the data stays for the reads.
        method = 'delete';
        path = generate.pick(['/items/things', '/presets', '/folders']);
        body = { query: { ...generate.query(), filter: { _and: [generate.filter(), { id: { _lt: -1 } }] } } };
      } else if (kind === 2) {
        method = 'post';
        path = generate.pick(['/items/things', '/presets', '/folders']);
        body = generate.chance(0.2) ? [generate.payload(), generate.payload()] : generate.payload();
      } else if (kind === 3) {
        method = 'patch';
        path = generate.pick(['/items/things/2', '/items/things', '/presets']);
        body = generate.chance(0.5) ? generate.payload() : [{ id: 2, ...generate.payload() }];
      } else {
        method = 'patch';
        path = '/items/things';
        body = { keys: generate.pick([[1], ['x'], [{}], 'constructor', null, [2 ** 63]]), data: generate.payload() };
      }
      const text = JSON.stringify(body) ?? 'null';
      const response = await t.request[method](`${path}?fields=id`).set(auth()).set('Content-Type', 'application/json').send(text);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      expect(response.status, context(SEED + 1, index, { method: method.toUpperCase(), path, body, status: response.status, response: response.body })).toBeLessThan(500);
    }
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(25);
  }, 120_000);

  it('the same seed generates the same inputs', () => {
    const a = new Generator(SEED);
    const b = new Generator(SEED);
    for (let index = 0; index < 20; index++) expect(a.queryString(a.query())).toEqual(b.queryString(b.query()));
  });
});
