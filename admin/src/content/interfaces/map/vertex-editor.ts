import type { Map as MapLibreMap } from 'maplibre-gl';
import { TerraDraw, TerraDrawLineStringMode, TerraDrawPointMode, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { Geometry } from './draw-geometry.ts';
import { partsOf, withPartCoordinates, type GeometryPart } from './geometry-parts.ts';

/** terra-draw's mode name for each shape it edits. */
const MODE_OF: Readonly<Record<GeometryPart['type'], string>> = { Point: 'point', LineString: 'linestring', Polygon: 'polygon' };

/** Lines and polygons: vertices dragged, added at midpoints, deleted; the whole shape dragged too. */
const SHAPE_FLAGS = { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } };

export interface VertexEditor {
  /** How many parts of the value terra-draw refused (e.g. polygons with holes), which stay as they are. */
  refused: number;
  stop(): void;
}

/**
 * Edits `value` on `map` with terra-draw's select mode: a click selects a shape, its vertices (and whole
 * points) can then be dragged. Each finished edit gives the whole new value to `onChange`; Multi… values
 * and collections are edited part by part and put back together.
 */
export function startVertexEditor(map: MapLibreMap, value: Geometry, onChange: (next: Geometry) => void): VertexEditor {
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map }),
    modes: [new TerraDrawPointMode(), new TerraDrawLineStringMode(), new TerraDrawPolygonMode(), new TerraDrawSelectMode({ flags: { point: { feature: { draggable: true } }, linestring: SHAPE_FLAGS, polygon: SHAPE_FLAGS } })],
  });
  draw.start();
  const parts = partsOf(value);
  const features = parts.map((part) => ({ type: 'Feature', geometry: { type: part.type, coordinates: part.coordinates }, properties: { mode: MODE_OF[part.type] } }) as GeoJSONStoreFeatures);
  const results = draw.addFeatures(features);
  const pathOf = new Map<string | number, number[]>();
  results.forEach((result, index) => {
    if (result.valid && result.id !== undefined) pathOf.set(result.id, parts[index]!.path);
  });
  draw.setMode('select');
  // The first shape starts selected, its vertices ready to drag; a click selects another.
  const first = results.find((result) => result.valid && result.id !== undefined);
  if (first) draw.selectFeature(first.id!);
  let latest = value;
  draw.on('finish', (id, context) => {
    const path = pathOf.get(id);
    const feature = draw.getSnapshotFeature(id);
    if (context.mode !== 'select' || !path || !feature) return;
    latest = withPartCoordinates(latest, path, feature.geometry.coordinates);
    onChange(latest);
  });
  return { refused: results.filter((result) => !result.valid).length, stop: () => draw.stop() };
}
