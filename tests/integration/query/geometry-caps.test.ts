import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_POSITIONS } from '../../../server/schema/geojson.ts';
import { MAX_INTERSECTS_EDGES } from '../../../server/query/compile-geometry.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** A closed ring of `edges` edges around the origin (a regular polygon). */
function ring(edges: number): number[][] {
  const points = Array.from({ length: edges }, (_, i) => [Math.round(Math.cos((2 * Math.PI * i) / edges) * 1e6) / 1e5, Math.round(Math.sin((2 * Math.PI * i) / edges) * 1e6) / 1e5]);
  return [...points, points[0]!];
}

/** The documented caps of geometry values (docs/query.md; issue 37 item 7): 100,000 positions, 2,000 `_intersects` edges. */
describe('geometry caps', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp({ MAX_PAYLOAD_SIZE: '4mb' });
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(auth())
      .send({ collection: 'places', fields: [{ field: 'name', type: 'string' }, { field: 'location', type: 'geometry.Point' }, { field: 'cloud', type: 'geometry.MultiPoint' }] })
      .expect(200);
    await t.request.post('/items/places').set(auth()).send({ name: 'origin', location: { type: 'Point', coordinates: [0, 0] } }).expect(200);
  });
  afterAll(() => t.close());

  it(`stores a value of ${MAX_POSITIONS} positions and refuses one more, naming the field`, async () => {
    expect(MAX_POSITIONS).toBe(100_000);
    const cloud = (count: number) => ({ type: 'MultiPoint', coordinates: Array.from({ length: count }, (_, i) => [i % 180, 0]) });
    await t.request.post('/items/places').set(auth()).send({ name: 'full', cloud: cloud(MAX_POSITIONS) }).expect(200);
    const refused = await t.request.post('/items/places').set(auth()).send({ name: 'over', cloud: cloud(MAX_POSITIONS + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'cloud' });
    expect(refused.body.errors[0].message).toMatch(/more than 100000 positions/);
  });

  it(`answers _intersects with a polygon of ${MAX_INTERSECTS_EDGES} edges and refuses one more, naming the field`, async () => {
    expect(MAX_INTERSECTS_EDGES).toBe(2_000);
    const search = (edges: number) => t.request.search('/items/places').set(auth()).send({ query: { fields: ['name'], filter: { location: { _intersects: { type: 'Polygon', coordinates: [ring(edges)] } } } } });
    const answered = await search(MAX_INTERSECTS_EDGES);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.data).toEqual([{ name: 'origin' }]);
    const refused = await search(MAX_INTERSECTS_EDGES + 1);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.field).toBe('location');
    expect(refused.body.errors[0].message).toMatch(/at most 2000 edges/);
  });
});
