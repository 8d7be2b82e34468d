import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const square = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

describe('geometry fields (GeoJSON in jsonb domains) and the geometry filters', () => {
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
    ];
    await t.request.post('/items/places').set(auth()).send(rows).expect(200);
  });
  afterAll(() => t.close());

  it('creates geometry columns whose type reads back, and the database itself refuses another GeoJSON type', async () => {
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
      [{ shape: { type: 'GeometryCollection', geometries: [] } }, 'shape', /GeoJSON Point, LineString/],
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
    const cases: Array<[object, string, RegExp]> = [
      [{ area: { _intersects: { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] } } }, 'area', /needs PostGIS/],
      [{ location: { _intersects: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } } }, 'location', /needs PostGIS/],
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
    await t.request.post('/items/places').set(auth()).send({ name: 'e', area: { type: 'Point', coordinates: [0, 0] } }).expect(400);

    const response = await t.request.post('/graphql').set(auth()).send({ query: '{ places(filter: { name: { _eq: "b" } }) { name location shape } }' }).expect(200);
    expect(response.body).toEqual({ data: { places: [{ name: 'b', location: { type: 'Point', coordinates: [5, 5] }, shape: { type: 'LineString', coordinates: [[4, 4], [9, 1]] } }] } });
  });
});
