import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmbeddedApp, type EmbeddedApp } from '../../helpers/embedded-app.ts';

/** The embedded database (PGlite) has no PostGIS: geometry stays GeoJSON, GeometryCollection included. */
let embedded: EmbeddedApp;

beforeAll(async () => {
  embedded = await createEmbeddedApp('tessera-geometry-');
}, 120_000);

afterAll(async () => {
  await embedded?.close();
});

it('stores geometry as GeoJSON in the domains on the embedded database, GeometryCollection and its bounding box included', async () => {
  const { request, auth, database } = embedded;
  await request.post('/collections').set(auth).send({ collection: 'shapes', fields: [{ field: 'name', type: 'string' }, { field: 'shape', type: 'geometry' }] }).expect(200);
  const { rows } = await sql<{ domain: string | null }>`select domain_name as domain from information_schema.columns where table_name = 'shapes' and column_name = 'shape'`.execute(database.kysely());
  expect(rows).toEqual([{ domain: 'tessera_geometry' }]);
  const collection = { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [40, 40] }, { type: 'LineString', coordinates: [[50, 50], [60, 60]] }] };
  await request.post('/items/shapes').set(auth).send([{ name: 'g', shape: collection }, { name: 'p', shape: { type: 'Point', coordinates: [1, 1] } }]).expect(200);
  const names = async (filter: object) => (await request.get('/items/shapes').query({ fields: 'name', sort: 'name', filter: JSON.stringify(filter) }).set(auth).expect(200)).body.data.map((row: { name: string }) => row.name);
  expect(await names({ shape: { _intersects_bbox: { type: 'Point', coordinates: [55, 45] } } })).toEqual(['g']);
  expect(await names({ shape: { _nintersects_bbox: { type: 'Point', coordinates: [55, 45] } } })).toEqual(['p']);
  expect((await request.get('/items/shapes').query({ filter: JSON.stringify({ name: { _eq: 'g' } }) }).set(auth).expect(200)).body.data[0].shape).toEqual(collection);
  const refused = await request.get('/items/shapes').query({ filter: JSON.stringify({ shape: { _intersects: collection } }) }).set(auth).expect(400);
  expect(refused.body.errors[0]).toMatchObject({ extensions: { field: 'shape' }, message: expect.stringMatching(/needs PostGIS/) });
});
