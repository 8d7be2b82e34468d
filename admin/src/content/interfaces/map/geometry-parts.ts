import type { Geometry } from './draw-geometry.ts';

/** A Point, LineString or Polygon inside a field's value, and where its coordinates sit in that value. */
export interface GeometryPart {
  type: 'Point' | 'LineString' | 'Polygon';
  coordinates: unknown;
  /** `[]` for the value itself; `[i]` for part i of a Multi…; `[j]` or `[j, i]` for member j of a GeometryCollection. */
  path: number[];
}

const SIMPLE = ['Point', 'LineString', 'Polygon'] as const;
type Simple = (typeof SIMPLE)[number];
const isSimple = (type: string): type is Simple => (SIMPLE as readonly string[]).includes(type);

function partsOfShape(geometry: Geometry, prefix: number[]): GeometryPart[] {
  if (isSimple(geometry.type)) return [{ type: geometry.type, coordinates: geometry.coordinates, path: prefix }];
  const single = geometry.type.replace(/^Multi/, '');
  if (geometry.type.startsWith('Multi') && isSimple(single) && Array.isArray(geometry.coordinates)) {
    return geometry.coordinates.map((coordinates, index) => ({ type: single, coordinates, path: [...prefix, index] }));
  }
  return [];
}

/** The shapes a draw library can edit one by one: the value, each part of a Multi…, each member of a collection. */
export function partsOf(value: Geometry | null): GeometryPart[] {
  if (!value) return [];
  if (value.type === 'GeometryCollection') {
    const members = (value as { geometries?: Geometry[] }).geometries ?? [];
    return members.flatMap((member, index) => partsOfShape(member, [index]));
  }
  return partsOfShape(value, []);
}

/** `value` with the coordinates of the part at `path` replaced (a new object; `value` is left as it is). */
export function withPartCoordinates(value: Geometry, path: readonly number[], coordinates: unknown): Geometry {
  const copy = structuredClone(value) as Geometry & { geometries?: Geometry[] };
  let shape: Geometry = copy;
  let rest = path;
  if (copy.type === 'GeometryCollection') {
    shape = copy.geometries![path[0]!]!;
    rest = path.slice(1);
  }
  if (rest.length === 0) shape.coordinates = coordinates;
  else (shape.coordinates as unknown[])[rest[0]!] = coordinates;
  return copy;
}
