import { describe, expect, it } from 'vitest';
import { fieldTypeOf, parseColumnDefault } from '../../../server/schema/column-types.ts';
import { geometryTypeOfPostgisColumn, postgisTypeName } from '../../../server/schema/postgis.ts';
import { bboxOf, geometryProblem } from '../../../server/schema/geojson.ts';
import { ANY_GEOJSON_TYPES } from '../../../server/schema/geometry-types.ts';

describe('PostGIS columns read back as Tessera geometry types', () => {
  it('maps format_type of a geometry column to the field type, dimensions and SRID aside', () => {
    expect(geometryTypeOfPostgisColumn('geometry(Point,4326)')).toBe('geometry.Point');
    expect(geometryTypeOfPostgisColumn('geometry(MultiPolygon,4326)')).toBe('geometry.MultiPolygon');
    expect(geometryTypeOfPostgisColumn('geometry(LineStringZ,3857)')).toBe('geometry.LineString');
    expect(geometryTypeOfPostgisColumn('geometry(PointZM)')).toBe('geometry.Point');
    expect(geometryTypeOfPostgisColumn('geometry(Geometry,4326)')).toBe('geometry');
    expect(geometryTypeOfPostgisColumn('geometry(GeometryCollection,4326)')).toBe('geometry');
    expect(geometryTypeOfPostgisColumn('geometry')).toBe('geometry');
    expect(fieldTypeOf('geometry', [], null, 'geometry(Polygon,4326)')).toBe('geometry.Polygon');
  });

  it('names the PostGIS type of each field type', () => {
    expect(postgisTypeName('geometry')).toBe('Geometry');
    expect(postgisTypeName('geometry.MultiLineString')).toBe('MultiLineString');
  });

  it('reads a ST_GeomFromGeoJSON default back as its GeoJSON, and other expressions as generated', () => {
    expect(parseColumnDefault(`st_geomfromgeojson('{"type":"Point","coordinates":[1,2]}'::text)`, 'geometry.Point', false)).toEqual({ value: { type: 'Point', coordinates: [1, 2] }, generated: false });
    expect(parseColumnDefault(`st_geomfromgeojson('{"type":"Point","coordinates":[1,2]}'::text)`, 'text', false).generated).toBe(true);
  });
});

describe('GeometryCollection', () => {
  const collection = { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 5] }, { type: 'LineString', coordinates: [[-2, 0], [3, 4]] }] };
  it('is valid GeoJSON for the generic type, with its members checked', () => {
    expect(geometryProblem(collection, ANY_GEOJSON_TYPES)).toBeNull();
    expect(geometryProblem({ type: 'GeometryCollection', geometries: [] }, ANY_GEOJSON_TYPES)).toBeNull();
    expect(geometryProblem({ type: 'GeometryCollection', geometries: [collection] }, ANY_GEOJSON_TYPES)).toMatch(/inside a GeometryCollection/);
    expect(geometryProblem({ type: 'GeometryCollection', geometries: [{ type: 'LineString', coordinates: [[0, 0]] }] }, ANY_GEOJSON_TYPES)).toMatch(/geometries\[0\] that has a line of fewer than 2/);
    expect(geometryProblem({ type: 'GeometryCollection', geometries: [null] }, ANY_GEOJSON_TYPES)).toMatch(/geometries\[0\]/);
    expect(geometryProblem(collection, ['Point'])).toMatch(/GeoJSON Point/);
  });

  it('has the bounding box of all its members', () => {
    expect(bboxOf(collection)).toEqual([-2, 0, 3, 5]);
  });

  it('refuses a z coordinate only where the column is two-dimensional', () => {
    const point = { type: 'Point', coordinates: [1, 2, 3] };
    expect(geometryProblem(point, ['Point'])).toBeNull();
    expect(geometryProblem(point, ['Point'], { twoDimensional: true })).toMatch(/z coordinate/);
  });

  it('refuses a crs other than EPSG:4326 only where PostGIS would read it', () => {
    const named = (name: string) => ({ type: 'Point', coordinates: [1, 2], crs: { type: 'name', properties: { name } } });
    expect(geometryProblem(named('EPSG:3857'), ['Point'])).toBeNull();
    expect(geometryProblem(named('EPSG:3857'), ['Point'], { wgs84Only: true })).toMatch(/crs/);
    expect(geometryProblem({ type: 'Point', coordinates: [1, 2], crs: null }, ['Point'], { wgs84Only: true })).toMatch(/crs/);
    expect(geometryProblem(named('EPSG:4326'), ['Point'], { wgs84Only: true })).toBeNull();
    expect(geometryProblem(named('urn:ogc:def:crs:EPSG::4326'), ['Point'], { wgs84Only: true })).toBeNull();
  });
});
