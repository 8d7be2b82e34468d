/** A GeoJSON geometry as the map edits it. */
export interface Geometry {
  type: string;
  coordinates: unknown;
}

/** What a click adds: a point, a line's vertex or a polygon's vertex. */
export type DrawKind = 'Point' | 'LineString' | 'Polygon';

/** The kind of shape drawn for a field type (`geometry` lets the editor choose). */
export function drawKindOf(fieldType: string): DrawKind | null {
  const type = fieldType.replace(/^geometry\.?/, '').replace(/^Multi/, '');
  return type === 'Point' || type === 'LineString' || type === 'Polygon' ? type : null;
}

/** Coordinates rounded to 7 decimals (about a centimetre): what a click can mean. */
export function position(lng: number, lat: number): [number, number] {
  return [Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
}

/** Vertices clicked so far make a shape of `kind`, or null when there are too few. */
export function shapeOf(kind: DrawKind, vertices: ReadonlyArray<[number, number]>): Geometry | null {
  if (kind === 'Point') return vertices.length > 0 ? { type: 'Point', coordinates: vertices.at(-1) } : null;
  if (kind === 'LineString') return vertices.length >= 2 ? { type: 'LineString', coordinates: [...vertices] } : null;
  return vertices.length >= 3 ? { type: 'Polygon', coordinates: [[...vertices, vertices[0]!]] } : null;
}

/**
 * The field's new value once a shape is finished: the shape itself, or for a Multi… field the value with
 * the shape added as one more part.
 */
export function withShape(fieldType: string, current: Geometry | null, shape: Geometry): Geometry {
  if (!fieldType.startsWith('geometry.Multi')) return shape;
  const parts = current && current.type === `Multi${shape.type}` ? (current.coordinates as unknown[]) : [];
  return { type: `Multi${shape.type}`, coordinates: [...parts, shape.coordinates] };
}

/** Every position of a geometry, for fitting the view to it. */
export function positionsOf(geometry: Geometry | null): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node) && typeof node[0] === 'number') found.push([node[0], node[1] as number]);
    else if (Array.isArray(node)) node.forEach(visit);
  };
  if (geometry) visit(geometry.coordinates);
  return found;
}
