import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import { bboxOf, geometryProblem, type BBox } from '../schema/geojson.ts';
import { ANY_GEOJSON_TYPES } from '../schema/geometry-types.ts';
import type { Sql } from './context.ts';

/** At most this many polygon edges in an exact `_intersects` value: each becomes a term of the SQL. */
export const MAX_INTERSECTS_EDGES = 2_000;

interface GeometryTarget {
  sql: Sql;
  type: string;
  label: string;
  /** A PostGIS geometry column rather than GeoJSON in jsonb. */
  postgis?: boolean;
}

interface Geometry {
  type: string;
  coordinates: unknown;
}

function fail(message: string, target: GeometryTarget): never {
  throw new InvalidQueryError(message, { field: target.label });
}

/** The operand: a GeoJSON geometry, as an object or as its JSON text (query strings carry text). */
function geometryOperand(raw: unknown, target: GeometryTarget, operator: string): Geometry {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      fail(`${operator} on "${target.label}" takes a GeoJSON geometry; the value is not JSON.`, target);
    }
  }
  const problem = geometryProblem(value, ANY_GEOJSON_TYPES, { wgs84Only: target.postgis === true });
  if (problem) fail(`${operator} on "${target.label}" takes a GeoJSON geometry; the value ${problem}.`, target);
  return value as Geometry;
}

const number = (value: number) => sql`${value}::float8`;

/** The stored geometry's bounding box meets `box` (edges touching count), over tessera_geojson_bbox(). */
function bboxMeets(target: GeometryTarget, box: BBox): Sql {
  return sql`(select b[1] <= ${number(box[2])} and b[3] >= ${number(box[0])} and b[2] <= ${number(box[3])} and b[4] >= ${number(box[1])} from tessera_geojson_bbox(${target.sql}::jsonb) as b)`;
}

/**
 * A stored point inside the polygons of `value`, by the even-odd rule over every ring's edges (holes and
 * the parts of a MultiPolygon included): one SQL term per edge, the edges known when compiling.
 */
function pointInPolygons(target: GeometryTarget, value: Geometry): Sql {
  const polygons = (value.type === 'Polygon' ? [value.coordinates] : value.coordinates) as number[][][][];
  const edges: Array<[number[], number[]]> = [];
  for (const ring of polygons.flat()) for (let index = 1; index < ring.length; index += 1) edges.push([ring[index - 1]!, ring[index]!]);
  if (edges.length > MAX_INTERSECTS_EDGES) fail(`_intersects on "${target.label}" takes polygons of at most ${MAX_INTERSECTS_EDGES} edges.`, target);
  const x = sql`(${target.sql}->'coordinates'->>0)::float8`;
  const y = sql`(${target.sql}->'coordinates'->>1)::float8`;
  const crossings = edges
    .filter(([a, b]) => a[1] !== b[1])
    .map(([[xi, yi], [xj, yj]]) => sql`(((${number(yi!)} > ${y}) <> (${number(yj!)} > ${y})) and ${x} < ${number(xj! - xi!)} * (${y} - ${number(yi!)}) / ${number(yj! - yi!)} + ${number(xi!)})::int`);
  if (crossings.length === 0) return sql`false`;
  return sql`(${target.sql}->>'type' = 'Point' and (${sql.join(crossings, sql` + `)}) % 2 = 1)`;
}

/** A stored point equal to the point `value`. */
function samePoint(target: GeometryTarget, value: Geometry): Sql {
  const [px, py] = value.coordinates as number[];
  return sql`(${target.sql}->>'type' = 'Point' and (${target.sql}->'coordinates'->>0)::float8 = ${number(px!)} and (${target.sql}->'coordinates'->>1)::float8 = ${number(py!)})`;
}

/**
 * On a PostGIS column, as Directus does: `_intersects` is ST_Intersects with the geometry, `_intersects_bbox`
 * ST_Intersects with its bounding box (ST_Envelope), exact for every pair of geometry types.
 */
function postgisIntersects(target: GeometryTarget, operator: string, value: Geometry): Sql {
  const geometry = sql`ST_GeomFromGeoJSON(${JSON.stringify(value)}::text)`;
  const operand = operator.endsWith('_bbox') ? sql`ST_Envelope(${geometry})` : geometry;
  return sql`ST_Intersects(${target.sql}, ${operand})`;
}

/**
 * Directus's geometry filters (docs/query.md says what each does on each storage). On a PostGIS column every
 * operator is ST_Intersects. Over GeoJSON in jsonb: `_intersects_bbox` / `_nintersects_bbox` compare
 * bounding boxes for every geometry type; `_intersects` / `_nintersects` are exact for point fields against
 * a Point, Polygon or MultiPolygon, and refused (400) for what needs PostGIS's geometry engine.
 */
export function compileGeometryOperator(target: GeometryTarget, operator: string, raw: unknown): Sql {
  const value = geometryOperand(raw, target, operator);
  const negate = operator.startsWith('_n');
  if (target.postgis) {
    const meets = postgisIntersects(target, operator, value);
    return negate ? sql`not ${meets}` : meets;
  }
  if (operator === '_intersects_bbox' || operator === '_nintersects_bbox') {
    const meets = bboxMeets(target, bboxOf(value));
    return negate ? sql`not ${meets}` : meets;
  }
  if (target.type !== 'geometry.Point' || !['Point', 'Polygon', 'MultiPolygon'].includes(value.type)) {
    fail(
      `${operator} on "${target.label}" needs PostGIS for a ${target.type} field and a ${value.type}; without it Tessera answers it exactly for geometry.Point fields against a Point, Polygon or MultiPolygon. _intersects_bbox compares bounding boxes of any geometry.`,
      target,
    );
  }
  const meets = value.type === 'Point' ? samePoint(target, value) : pointInPolygons(target, value);
  return negate ? sql`not ${meets}` : meets;
}
