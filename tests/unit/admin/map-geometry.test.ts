import { describe, expect, it } from 'vitest';
import { drawKindOf, positionsOf, shapeOf, withShape } from '../../../admin/src/content/interfaces/map/draw-geometry.ts';
import { basemapStyle, BLANK_STYLE } from '../../../admin/src/content/interfaces/map/map-style.ts';
import { partsOf, withPartCoordinates } from '../../../admin/src/content/interfaces/map/geometry-parts.ts';

describe('map interface: drawing', () => {
  it('draws the shape the field type holds; the generic type lets the editor choose', () => {
    expect(drawKindOf('geometry.Point')).toBe('Point');
    expect(drawKindOf('geometry.MultiPolygon')).toBe('Polygon');
    expect(drawKindOf('geometry.MultiLineString')).toBe('LineString');
    expect(drawKindOf('geometry')).toBeNull();
  });

  it('makes shapes from clicked vertices: lines of 2+, polygons closed from 3+', () => {
    expect(shapeOf('LineString', [[0, 0]])).toBeNull();
    expect(shapeOf('LineString', [[0, 0], [1, 1]])).toEqual({ type: 'LineString', coordinates: [[0, 0], [1, 1]] });
    expect(shapeOf('Polygon', [[0, 0], [1, 0]])).toBeNull();
    expect(shapeOf('Polygon', [[0, 0], [1, 0], [1, 1]])).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] });
  });

  it('adds each finished shape as a part of a Multi… field, and replaces a single one', () => {
    const first = withShape('geometry.MultiPoint', null, { type: 'Point', coordinates: [1, 2] });
    expect(first).toEqual({ type: 'MultiPoint', coordinates: [[1, 2]] });
    expect(withShape('geometry.MultiPoint', first, { type: 'Point', coordinates: [3, 4] })).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    expect(withShape('geometry.Point', { type: 'Point', coordinates: [1, 2] }, { type: 'Point', coordinates: [3, 4] })).toEqual({ type: 'Point', coordinates: [3, 4] });
    expect(positionsOf({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] })).toEqual([[1, 2], [3, 4]]);
  });
});

describe('map interface: basemaps', () => {
  it('is blank (no sources, nothing fetched) without a basemap', () => {
    expect(basemapStyle(null)).toBe(BLANK_STYLE);
    expect(BLANK_STYLE.sources).toEqual({});
  });

  it('builds raster, TileJSON and style basemaps; a Mapbox style gets the project key', () => {
    expect(basemapStyle({ type: 'raster', url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Example' })).toMatchObject({ sources: { basemap: { type: 'raster', tiles: ['https://tiles.example/{z}/{x}/{y}.png'], tileSize: 256, attribution: '© Example' } } });
    expect(basemapStyle({ type: 'tile', url: 'https://tiles.example/tiles.json', tileSize: 256 })).toMatchObject({ sources: { basemap: { type: 'raster', url: 'https://tiles.example/tiles.json', tileSize: 256 } } });
    expect(basemapStyle({ type: 'style', url: 'https://api.mapbox.com/styles/v1/mapbox/streets-v12' }, 'pk.key')).toBe('https://api.mapbox.com/styles/v1/mapbox/streets-v12?access_token=pk.key');
    expect(basemapStyle({ type: 'style', url: 'https://styles.example/style.json' }, 'pk.key')).toBe('https://styles.example/style.json');
  });
});

describe('geometry parts the vertex editor works on', () => {
  const square = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]];
  it('splits a value into simple shapes with their paths', () => {
    expect(partsOf({ type: 'Polygon', coordinates: square })).toEqual([{ type: 'Polygon', coordinates: square, path: [] }]);
    expect(partsOf({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] }).map((part) => [part.type, part.path])).toEqual([['Point', [0]], ['Point', [1]]]);
    const collection = { type: 'GeometryCollection', coordinates: undefined, geometries: [{ type: 'Point', coordinates: [1, 2] }, { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]]] }] };
    expect(partsOf(collection).map((part) => [part.type, part.path])).toEqual([['Point', [0]], ['LineString', [1, 0]]]);
    expect(partsOf(null)).toEqual([]);
  });

  it('writes one part’s moved coordinates back without touching the rest', () => {
    const multi = { type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] };
    expect(withPartCoordinates(multi, [1], [5, 6])).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [5, 6]] });
    expect(multi.coordinates[1]).toEqual([3, 4]);
    expect(withPartCoordinates({ type: 'Point', coordinates: [0, 0] }, [], [7, 8])).toEqual({ type: 'Point', coordinates: [7, 8] });
    const collection = { type: 'GeometryCollection', coordinates: undefined, geometries: [{ type: 'Point', coordinates: [1, 2] }, { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]]] }] };
    expect(withPartCoordinates(collection, [1, 0], [[0, 0], [2, 2]])).toMatchObject({ geometries: [{ coordinates: [1, 2] }, { coordinates: [[[0, 0], [2, 2]]] }] });
  });
});
