import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const square = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

const collection = { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [40, 40] }, { type: 'LineString', coordinates: [[50, 50], [60, 60]] }] };

/** The same suite on both storages: GeoJSON in jsonb domains (no PostGIS) and PostGIS geometry columns. */
describe.each(['geojson', 'postgis'] as const)('geometry fields and the geometry filters, stored as %s', (storage) => {
  const postgis = storage === 'postgis';
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const names = async (filter: object) => {
    const response = await t.request.get('/items/places').query({ fields: 'name', sort: 'name', filter: JSON.stringify(filter) }).set(auth());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.map((row: { name: string }) => row.name);
  };

  beforeAll(async () => {
    t = await createTestApp();
    if (postgis) await sql`create extension postgis`.execute(t.system.db);
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(auth())
      .send({
        collection: 'places',
        fields: [
          { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
          { field: 'name', type: 'string' },
          { field: 'location', type: 'geometry.Point' },
          { field: 'area', type: 'geometry.Polygon' },
          { field: 'shape', type: 'geometry' },
        ],
      })
      .expect(200);
    const rows = [
      { name: 'a', location: { type: 'Point', coordinates: [1, 1] }, area: { type: 'Polygon', coordinates: [square(0, 0, 2, 2)] } },
      { name: 'b', location: { type: 'Point', coordinates: [5, 5] }, area: { type: 'Polygon', coordinates: [square(4, 4, 8, 8)] }, shape: { type: 'LineString', coordinates: [[4, 4], [9, 1]] } },
      { name: 'c', location: { type: 'Point', coordinates: [10, 10] }, shape: { type: 'MultiPoint', coordinates: [[20, 20], [30, 30]] } },
      { name: 'd' },
      { name: 'g', shape: collection },
    ];
    await t.request.post('/items/places').set(auth()).send(rows).expect(200);
  });
  afterAll(() => t.close());

  const columnTypes = async () => {
    const result = await sql<{ column: string; type: string }>`select a.attname as column, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a where a.attrelid = 'places'::regclass and a.attnum > 0 and not a.attisdropped order by a.attname`.execute(t.system.db);
    return Object.fromEntries(result.rows.map((row) => [row.column, row.type]));
  };

  if (postgis) it('creates geometry(<Type>, 4326) columns that read back as their field types, and keeps spatial_ref_sys out of the collections', async () => {
    expect(await columnTypes()).toMatchObject({ location: 'geometry(Point,4326)', area: 'geometry(Polygon,4326)', shape: 'geometry(Geometry,4326)' });
    const fields = (await t.request.get('/fields/places').set(auth()).expect(200)).body.data;
    const typeOf = (name: string) => fields.find((field: { field: string }) => field.field === name);
    expect(typeOf('location')).toMatchObject({ type: 'geometry.Point', schema: { data_type: 'geometry' } });
    expect(typeOf('area').type).toBe('geometry.Polygon');
    expect(typeOf('shape').type).toBe('geometry');
    // The database itself refuses another type in a typed column.
    await expect(sql`insert into places (name, location) values ('x', ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] })}))`.execute(t.system.db)).rejects.toThrow(/does not match column type/);
    const collections = (await t.request.get('/collections').set(auth()).expect(200)).body.data.map((item: { collection: string }) => item.collection);
    expect(collections).toContain('places');
    expect(collections).not.toContain('spatial_ref_sys');
    // Values read back as the GeoJSON written, also digits a double needs all 17 of.
    const [a] = (await t.request.get('/items/places').query({ filter: JSON.stringify({ name: { _eq: 'a' } }) }).set(auth()).expect(200)).body.data;
    expect(a.location).toEqual({ type: 'Point', coordinates: [1, 1] });
    const precise = { type: 'Point', coordinates: [0.1 + 0.2, -33.123456789012345] };
    const created = (await t.request.post('/items/places').set(auth()).send({ name: 'p', location: precise }).expect(200)).body.data;
    expect((await t.request.get(`/items/places/${created.id}`).set(auth()).expect(200)).body.data.location).toEqual(precise);
    await t.request.delete(`/items/places/${created.id}`).set(auth()).expect(204);
  });

  if (postgis) it('creates and alters a geometry field on PostGIS through the data model, default included', async () => {
    const pin = { type: 'Point', coordinates: [2.35, 48.85] };
    await t.request.post('/fields/places').set(auth()).send({ field: 'pin', type: 'geometry.Point', schema: { default_value: pin } }).expect(200);
    expect((await columnTypes()).pin).toBe('geometry(Point,4326)');
    expect((await t.request.get('/fields/places/pin').set(auth()).expect(200)).body.data).toMatchObject({ type: 'geometry.Point', schema: { default_value: pin } });
    const created = (await t.request.post('/items/places').set(auth()).send({ name: 'pinned' }).expect(200)).body.data;
    expect((await t.request.get(`/items/places/${created.id}`).set(auth()).expect(200)).body.data.pin).toEqual(pin);
    // A Point field becomes the generic geometry type: the column becomes geometry(Geometry, 4326), values kept.
    await t.request.patch('/fields/places/pin').set(auth()).send({ type: 'geometry' }).expect(200);
    expect((await columnTypes()).pin).toBe('geometry(Geometry,4326)');
    expect((await t.request.get('/fields/places/pin').set(auth()).expect(200)).body.data.type).toBe('geometry');
    expect((await t.request.get(`/items/places/${created.id}`).set(auth()).expect(200)).body.data.pin).toEqual(pin);
    await t.request.patch(`/items/places/${created.id}`).set(auth()).send({ pin: collection }).expect(200);
    expect((await t.request.get(`/items/places/${created.id}`).set(auth()).expect(200)).body.data.pin).toEqual(collection);
    // A z coordinate does not fit a 2-dimensional column: a 400 naming the field, not a database error.
    const response = await t.request.patch(`/items/places/${created.id}`).set(auth()).send({ pin: { type: 'Point', coordinates: [1, 2, 3] } }).expect(400);
    expect(response.body.errors[0]).toMatchObject({ extensions: { code: 'INVALID_PAYLOAD', field: 'pin' }, message: expect.stringMatching(/z coordinate/) });
    // Another SRID named by a (pre-RFC 7946) crs member neither: a 400, on writes and in filters; EPSG:4326 is taken.
    const mercator = { type: 'Point', coordinates: [1, 2], crs: { type: 'name', properties: { name: 'EPSG:3857' } } };
    const refused = await t.request.patch(`/items/places/${created.id}`).set(auth()).send({ pin: mercator }).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'INVALID_PAYLOAD', field: 'pin' }, message: expect.stringMatching(/crs/) });
    const filtered = await t.request.get('/items/places').query({ filter: JSON.stringify({ pin: { _intersects: mercator } }) }).set(auth()).expect(400);
    expect(filtered.body.errors[0]).toMatchObject({ extensions: { field: 'pin' }, message: expect.stringMatching(/crs/) });
    const wgs84 = { ...mercator, crs: { type: 'name', properties: { name: 'EPSG:4326' } } };
    await t.request.patch(`/items/places/${created.id}`).set(auth()).send({ pin: wgs84 }).expect(200);
    expect((await t.request.get(`/items/places/${created.id}`).set(auth()).expect(200)).body.data.pin).toEqual({ type: 'Point', coordinates: [1, 2] });
    await t.request.delete(`/items/places/${created.id}`).set(auth()).expect(204);
    await t.request.delete('/fields/places/pin').set(auth()).expect(204);
  });

  if (!postgis) it('creates geometry columns whose type reads back, and the database itself refuses another GeoJSON type', async () => {
    const fields = (await t.request.get('/fields/places').set(auth()).expect(200)).body.data;
    const typeOf = (name: string) => fields.find((field: { field: string }) => field.field === name);
    expect(typeOf('location')).toMatchObject({ type: 'geometry.Point', schema: { data_type: 'jsonb' } });
    expect(typeOf('area').type).toBe('geometry.Polygon');
    expect(typeOf('shape').type).toBe('geometry');
    const domains = await sql<{ column: string; domain: string }>`select column_name as column, domain_name as domain from information_schema.columns where table_name = 'places' and domain_name is not null order by column_name`.execute(t.system.db);
    expect(domains.rows).toEqual([{ column: 'area', domain: 'tessera_geometry_polygon' }, { column: 'location', domain: 'tessera_geometry_point' }, { column: 'shape', domain: 'tessera_geometry' }]);
    await expect(sql`insert into places (name, location) values ('x', ${JSON.stringify({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] })}::jsonb)`.execute(t.system.db)).rejects.toThrow(/tessera_geometry_point/);
    // Values read back as the GeoJSON written.
    const [a] = (await t.request.get('/items/places').query({ filter: JSON.stringify({ name: { _eq: 'a' } }) }).set(auth()).expect(200)).body.data;
    expect(a.location).toEqual({ type: 'Point', coordinates: [1, 1] });
  });

  it('validates writes: a 400 naming the field for anything but a GeoJSON geometry of the field’s type', async () => {
    const cases: Array<[object, string, RegExp]> = [
      [{ location: { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] } }, 'location', /GeoJSON Point/],
      [{ location: { type: 'Point', coordinates: [1] } }, 'location', /position/],
      [{ location: { type: 'Point', coordinates: ['1', 2] } }, 'location', /position/],
      [{ location: 'POINT(1 2)' }, 'location', /GeoJSON geometry object/],
      [{ area: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] } }, 'area', /last position is not its first/],
      [{ area: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] } }, 'area', /fewer than 4/],
      [{ shape: { type: 'LineString', coordinates: [[0, 0]] } }, 'shape', /fewer than 2/],
      [{ area: { type: 'GeometryCollection', geometries: [] } }, 'area', /GeoJSON Polygon/],
      [{ shape: { type: 'GeometryCollection', geometries: [collection] } }, 'shape', /GeometryCollection inside a GeometryCollection/],
      [{ shape: { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0] }] } }, 'shape', /geometries\[0\] that has a position/],
      [{ shape: { type: 'GeometryCollection' } }, 'shape', /without a "geometries" list/],
    ];
    for (const [body, field, message] of cases) {
      const response = await t.request.post('/items/places').set(auth()).send({ name: 'bad', ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors[0].extensions, JSON.stringify(body)).toMatchObject({ code: 'INVALID_PAYLOAD', field });
      expect(response.body.errors[0].message).toMatch(message);
    }
    expect((await t.request.get('/items/places').query({ filter: JSON.stringify({ name: { _eq: 'bad' } }) }).set(auth()).expect(200)).body.data).toEqual([]);
    // A default is checked the same way.
    await t.request.post('/fields/places').set(auth()).send({ field: 'pin', type: 'geometry.Point', schema: { default_value: { type: 'Point', coordinates: [0] } } }).expect(400);
  });

  it('_intersects_bbox / _nintersects_bbox compare bounding boxes, for every geometry type', async () => {
    const box = { type: 'Polygon', coordinates: [square(0, 0, 6, 6)] };
    expect(await names({ location: { _intersects_bbox: box } })).toEqual(['a', 'b']);
    expect(await names({ location: { _nintersects_bbox: box } })).toEqual(['c']);
    // The line from (4,4) to (9,1) has the box [4,1,9,4]: it meets [0,0,6,6]; the MultiPoint's [20,20,30,30] does not.
    expect(await names({ shape: { _intersects_bbox: box } })).toEqual(['b']);
    // Touching edges count: the area [4,4,8,8] meets a box ending at x = 4.
    expect(await names({ area: { _intersects_bbox: { type: 'Polygon', coordinates: [square(3, 3, 4, 4)] } } })).toEqual(['b']);
    // A point as the value: its box is the point itself.
    expect(await names({ area: { _intersects_bbox: { type: 'Point', coordinates: [1, 1] } } })).toEqual(['a']);
    // From a query string, as text.
    const response = await t.request.get(`/items/places?fields=name&sort=name&filter[location][_intersects_bbox]=${encodeURIComponent(JSON.stringify(box))}`).set(auth()).expect(200);
    expect(response.body.data.map((row: { name: string }) => row.name)).toEqual(['a', 'b']);
  });

  it('takes a GeometryCollection in a generic geometry field; _intersects_bbox covers its members', async () => {
    const [g] = (await t.request.get('/items/places').query({ filter: JSON.stringify({ name: { _eq: 'g' } }) }).set(auth()).expect(200)).body.data;
    expect(g.shape).toEqual(collection);
    expect(await names({ shape: { _intersects_bbox: { type: 'Point', coordinates: [60, 60] } } })).toEqual(['g']);
    expect(await names({ shape: { _intersects_bbox: { type: 'Polygon', coordinates: [square(100, 100, 101, 101)] } } })).toEqual([]);
    // A collection as the value: its bounding box [4,4,40,40] meets b's line, c's points and g; [41,41,42,42] none of them.
    const pair = (x: number, y: number) => ({ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [x, x] }, { type: 'Point', coordinates: [y, y] }] });
    expect(await names({ shape: { _intersects_bbox: pair(4, 40) } })).toEqual(['b', 'c', 'g']);
    expect(await names({ shape: { _intersects_bbox: pair(41, 42) } })).toEqual(postgis ? [] : ['g']);
    // Inside the collection's box but touching none of its members: the GeoJSON path compares boxes,
    // PostGIS intersects the field's geometry itself with the value's box.
    const between = { type: 'Polygon', coordinates: [square(41, 45, 44, 48)] };
    expect(await names({ shape: { _intersects_bbox: between } })).toEqual(postgis ? [] : ['g']);
  });

  if (postgis) it('_intersects / _nintersects are exact on PostGIS for every pair of types: polygon∩line, polygon∩polygon, multi-*, collections', async () => {
    // polygon ∩ linestring
    expect(await names({ area: { _intersects: { type: 'LineString', coordinates: [[1, -1], [1, 3]] } } })).toEqual(['a']);
    expect(await names({ area: { _intersects: { type: 'LineString', coordinates: [[3, 0], [3, 10]] } } })).toEqual([]);
    // polygon ∩ polygon: the triangle's box meets b's square, the triangle does not.
    const triangle = { type: 'Polygon', coordinates: [[[0, 0], [11, 0], [0, 5.5], [0, 0]]] };
    expect(await names({ area: { _intersects_bbox: triangle } })).toEqual(['a', 'b']);
    expect(await names({ area: { _intersects: triangle } })).toEqual(['a']);
    expect(await names({ area: { _nintersects: triangle } })).toEqual(['b']);
    // point ∩ multilinestring: a lies on the first line, c on the second.
    const lines = { type: 'MultiLineString', coordinates: [[[0, 0], [2, 2]], [[10, 0], [10, 20]]] };
    expect(await names({ location: { _intersects: lines } })).toEqual(['a', 'c']);
    // A line field and a multipoint field against a polygon.
    expect(await names({ shape: { _intersects: { type: 'Polygon', coordinates: [square(8, 0, 10, 3)] } } })).toEqual(['b']);
    expect(await names({ shape: { _intersects: { type: 'MultiPolygon', coordinates: [[square(19, 19, 21, 21)], [square(100, 100, 101, 101)]] } } })).toEqual(['c']);
    // A GeometryCollection field: its point meets, the gap between its members does not.
    expect(await names({ shape: { _intersects: { type: 'Point', coordinates: [40, 40] } } })).toEqual(['g']);
    expect(await names({ shape: { _intersects: { type: 'Polygon', coordinates: [square(41, 45, 44, 48)] } } })).toEqual([]);
    expect(await names({ shape: { _nintersects: { type: 'Polygon', coordinates: [square(41, 45, 44, 48)] } } })).toEqual(['b', 'c', 'g']);
    expect(await names({ shape: { _nintersects_bbox: { type: 'Polygon', coordinates: [square(41, 45, 44, 48)] } } })).toEqual(['b', 'c', 'g']);
  });

  it('_intersects / _nintersects are exact for points against a polygon (holes and multipolygons too) or a point', async () => {
    // A triangle whose bounding box holds b (5,5) although the triangle does not.
    const triangle = { type: 'Polygon', coordinates: [[[0, 0], [12, 0], [0, 6], [0, 0]]] };
    expect(await names({ location: { _intersects_bbox: triangle } })).toEqual(['a', 'b']);
    expect(await names({ location: { _intersects: triangle } })).toEqual(['a']);
    expect(await names({ location: { _nintersects: triangle } })).toEqual(['b', 'c']);
    // A hole around a.
    const holed = { type: 'Polygon', coordinates: [square(0, 0, 20, 20), square(0.5, 0.5, 1.5, 1.5)] };
    expect(await names({ location: { _intersects: holed } })).toEqual(['b', 'c']);
    const multi = { type: 'MultiPolygon', coordinates: [[square(0, 0, 2, 2)], [square(9, 9, 11, 11)]] };
    expect(await names({ location: { _intersects: multi } })).toEqual(['a', 'c']);
    expect(await names({ location: { _intersects: { type: 'Point', coordinates: [5, 5] } } })).toEqual(['b']);
  });

  it('refuses what it cannot answer exactly and operands that are not GeoJSON, with a 400 naming the field', async () => {
    const withoutPostgis: Array<[object, string, RegExp]> = [
      [{ area: { _intersects: { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] } } }, 'area', /needs PostGIS/],
      [{ location: { _intersects: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } } }, 'location', /needs PostGIS/],
      [{ shape: { _intersects: collection } }, 'shape', /needs PostGIS/],
    ];
    const cases: Array<[object, string, RegExp]> = [
      ...(postgis ? [] : withoutPostgis),
      [{ location: { _intersects: { type: 'Point', coordinates: [0, 0, 0, 0] } } }, 'location', /GeoJSON geometry/],
      [{ location: { _intersects_bbox: { type: 'Point' } } }, 'location', /GeoJSON geometry/],
      [{ location: { _intersects_bbox: 'not json' } }, 'location', /not JSON/],
      [{ name: { _intersects_bbox: { type: 'Point', coordinates: [0, 0] } } }, 'name', /only for geometry fields/],
    ];
    for (const [filter, field, message] of cases) {
      const response = await t.request.get('/items/places').query({ filter: JSON.stringify(filter) }).set(auth());
      expect(response.status, JSON.stringify(filter)).toBe(400);
      expect(response.body.errors[0].extensions.field).toBe(field);
      expect(response.body.errors[0].message).toMatch(message);
    }
  });

  it('round-trips through snapshots and reads through GraphQL', async () => {
    const snapshot = (await t.request.get('/schema/snapshot').set(auth()).expect(200)).body.data;
    const area = snapshot.fields.find((field: { collection: string; field: string }) => field.collection === 'places' && field.field === 'area');
    expect(area.type).toBe('geometry.Polygon');
    await t.request.post('/schema/diff').set(auth()).send(snapshot).expect(204);
    await t.request.delete('/fields/places/area').set(auth()).expect(204);
    const diff = (await t.request.post('/schema/diff').set(auth()).send(snapshot).expect(200)).body.data;
    await t.request.post('/schema/apply').set(auth()).send(diff).expect((response) => expect(response.status, JSON.stringify(response.body)).toBeLessThan(300));
    expect((await t.request.get('/fields/places/area').set(auth()).expect(200)).body.data.type).toBe('geometry.Polygon');
    expect((await columnTypes()).area).toBe(postgis ? 'geometry(Polygon,4326)' : 'tessera_geometry_polygon');
    await t.request.post('/items/places').set(auth()).send({ name: 'e', area: { type: 'Point', coordinates: [0, 0] } }).expect(400);

    const response = await t.request.post('/graphql').set(auth()).send({ query: '{ places(filter: { name: { _eq: "b" } }) { name location shape } }' }).expect(200);
    expect(response.body).toEqual({ data: { places: [{ name: 'b', location: { type: 'Point', coordinates: [5, 5] }, shape: { type: 'LineString', coordinates: [[4, 4], [9, 1]] } }] } });
  });
});
