import { sql, type Kysely } from 'kysely';
import type { GeometryType } from './geometry-types.ts';

/**
 * How a geometry field is stored: as a PostGIS `geometry(<Type>, 4326)` column when the database has the
 * postgis extension, else as GeoJSON in a jsonb domain (server/schema/geometry-types.ts). Tessera does not
 * create the extension: it is not a trusted extension (creating it needs a superuser) and choosing it is
 * the database operator's call (docs/query.md "Geometry").
 */
export type GeometryStorage = 'postgis' | 'geojson';

/** The spatial reference of every PostGIS column Tessera creates: WGS 84, GeoJSON's (RFC 7946 §4). */
export const SRID = 4326;

/** The PostGIS type name of a field type's column: `Point` for geometry.Point, `Geometry` for geometry. */
export function postgisTypeName(type: GeometryType): string {
  return type === 'geometry' ? 'Geometry' : type.slice('geometry.'.length);
}

const TYPE_BY_POSTGIS_NAME = new Map<string, GeometryType>([
  ['point', 'geometry.Point'],
  ['linestring', 'geometry.LineString'],
  ['polygon', 'geometry.Polygon'],
  ['multipoint', 'geometry.MultiPoint'],
  ['multilinestring', 'geometry.MultiLineString'],
  ['multipolygon', 'geometry.MultiPolygon'],
]);

/**
 * The field type of a PostGIS column from its `format_type` (`geometry(Point,4326)`, `geometry(PointZ)`,
 * `geometry`): the typed column's type, and the generic `geometry` for Geometry, GeometryCollection or no type.
 */
export function geometryTypeOfPostgisColumn(formatted: string): GeometryType {
  const name = /^geometry\((\w+?)(?:ZM|Z|M)?(?:,\s*\d+)?\)$/i.exec(formatted)?.[1]?.toLowerCase();
  return TYPE_BY_POSTGIS_NAME.get(name ?? '') ?? 'geometry';
}

/** Where new geometry fields of this database go: PostGIS when its extension is installed in it. */
export async function geometryStorageOf(db: Kysely<any>): Promise<GeometryStorage> {
  const result = await sql<{ installed: boolean }>`select exists (select 1 from pg_extension where extname = 'postgis') as installed`.execute(db);
  return result.rows[0]?.installed ? 'postgis' : 'geojson';
}
