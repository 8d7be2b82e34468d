import { GEOJSON_TYPES, GEOMETRY_COLLECTION } from './geometry-types.ts';

/** A bounding box: [min x, min y, max x, max y]. */
export type BBox = [number, number, number, number];

/** Positions of a GeoJSON geometry nest this deep in `coordinates` (a Point 0, a MultiPolygon 3). */
const DEPTH: Readonly<Record<(typeof GEOJSON_TYPES)[number], number>> = { Point: 0, LineString: 1, MultiPoint: 1, Polygon: 2, MultiLineString: 2, MultiPolygon: 3 };

/** At most this many positions in one geometry: a bound on the work one value can cost. */
export const MAX_POSITIONS = 100_000;

/** At most this many members in one GeometryCollection. */
export const MAX_COLLECTION_MEMBERS = 10_000;

export interface GeometryRules {
  /** Refuse positions with a z coordinate (a PostGIS `geometry(<Type>, 4326)` column holds x and y only). */
  twoDimensional?: boolean;
  /** Refuse a (pre-RFC 7946) `crs` member naming anything but EPSG:4326, which PostGIS would read as another SRID. */
  wgs84Only?: boolean;
}

/** The `crs` names PostGIS reads as SRID 4326. */
const WGS84_NAMES = new Set(['EPSG:4326', 'urn:ogc:def:crs:EPSG::4326']);

function crsProblem(value: object): string | null {
  if (!Object.hasOwn(value, 'crs')) return null;
  const name = (value as { crs?: { properties?: { name?: unknown } } | null }).crs?.properties?.name;
  return typeof name === 'string' && WGS84_NAMES.has(name) ? null : 'has a "crs" other than EPSG:4326 (GeoJSON positions are WGS 84 longitude, latitude)';
}

function isPosition(value: unknown): value is number[] {
  return Array.isArray(value) && (value.length === 2 || value.length === 3) && value.every((part) => typeof part === 'number' && Number.isFinite(part));
}

/**
 * Why `value` is not a GeoJSON geometry of one of `allowed` (RFC 7946 §3.1: positions of 2 or 3 finite
 * numbers, LineStrings of 2+ positions, closed linear rings of 4+, a GeometryCollection's `geometries`
 * each a geometry with coordinates — nested collections are refused, as §3.1.8 advises), or null when it is one.
 */
export function geometryProblem(value: unknown, allowed: readonly string[], rules: GeometryRules = {}): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a GeoJSON geometry object ({ "type", "coordinates" })';
  const { type } = value as { type?: unknown };
  if (typeof type !== 'string' || !allowed.includes(type)) return `must be a GeoJSON ${allowed.join(', ')}`;
  if (rules.wgs84Only) {
    const problem = crsProblem(value);
    if (problem) return problem;
  }
  const counter = { positions: 0 };
  if (type !== GEOMETRY_COLLECTION) return coordinatesProblem(value as { type: keyof typeof DEPTH; coordinates?: unknown }, counter, rules);
  const { geometries } = value as { geometries?: unknown };
  if (!Array.isArray(geometries)) return 'is a GeometryCollection without a "geometries" list';
  if (geometries.length > MAX_COLLECTION_MEMBERS) return `has more than ${MAX_COLLECTION_MEMBERS} geometries`;
  for (const [index, member] of geometries.entries()) {
    const memberType = (member as { type?: unknown } | null)?.type;
    if (memberType === GEOMETRY_COLLECTION) return `has a GeometryCollection inside a GeometryCollection (geometries[${index}])`;
    if (typeof member !== 'object' || member === null || Array.isArray(member) || !(GEOJSON_TYPES as readonly unknown[]).includes(memberType)) {
      return `has geometries[${index}] that is not a GeoJSON ${GEOJSON_TYPES.join(', ')}`;
    }
    const problem = coordinatesProblem(member as { type: keyof typeof DEPTH; coordinates?: unknown }, counter, rules);
    if (problem) return `has geometries[${index}] that ${problem}`;
  }
  return null;
}

function coordinatesProblem(geometry: { type: keyof typeof DEPTH; coordinates?: unknown }, counter: { positions: number }, rules: GeometryRules): string | null {
  const { type, coordinates } = geometry;
  const check = (node: unknown, depth: number, kind: string): string | null => {
    if (depth === 0) {
      counter.positions += 1;
      if (!isPosition(node)) return 'has a position that is not [x, y] or [x, y, z] of finite numbers';
      return rules.twoDimensional && node.length === 3 ? 'has a position with a z coordinate, and this field (a PostGIS geometry column) stores x and y only' : null;
    }
    if (!Array.isArray(node)) return `has coordinates that do not nest as a ${type}'s do`;
    if (counter.positions + node.length > MAX_POSITIONS) return `has more than ${MAX_POSITIONS} positions`;
    if (kind === 'line' && node.length < 2) return 'has a line of fewer than 2 positions';
    if (kind === 'ring') {
      if (node.length < 4) return 'has a ring of fewer than 4 positions';
      const [first, last] = [node[0], node.at(-1)];
      if (!isPosition(first) || !isPosition(last) || first.some((part, index) => part !== last[index])) return 'has a ring whose last position is not its first';
    }
    for (const child of node) {
      const problem = check(child, depth - 1, childKind(type, depth - 1));
      if (problem) return problem;
    }
    return null;
  };
  const depth = DEPTH[type];
  return check(coordinates, depth, childKind(type, depth));
}

/** What the arrays at `depth` of a geometry's coordinates are: lines, rings, or plain lists. */
function childKind(type: string, depth: number): 'line' | 'ring' | 'list' {
  if (depth === 1 && (type === 'LineString' || type === 'MultiLineString')) return 'line';
  if (depth === 1 && (type === 'Polygon' || type === 'MultiPolygon')) return 'ring';
  return 'list';
}

/** The bounding box of a valid GeoJSON geometry (a GeometryCollection's covers its members'). */
export function bboxOf(geometry: { coordinates?: unknown; geometries?: unknown }): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (node: unknown) => {
    if (isPosition(node)) {
      box[0] = Math.min(box[0], node[0]!);
      box[1] = Math.min(box[1], node[1]!);
      box[2] = Math.max(box[2], node[0]!);
      box[3] = Math.max(box[3], node[1]!);
    } else if (Array.isArray(node)) node.forEach(visit);
  };
  visit(geometry.coordinates);
  if (Array.isArray(geometry.geometries)) for (const member of geometry.geometries) visit((member as { coordinates?: unknown }).coordinates);
  return box;
}
