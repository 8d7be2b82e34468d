import type { FieldType } from './types.ts';

/**
 * Directus's geometry field types and the PostgreSQL domains that store them without PostGIS (PGlite, a
 * database without the extension): GeoJSON in a jsonb domain whose check refuses any other GeoJSON type
 * (migrations 20261123000010-geometry-domains, 20261124000020-geometry-collection); the domain is also how
 * reading the schema gives the type back. With PostGIS a field is a `geometry(<Type>, 4326)` column
 * (server/schema/postgis.ts).
 */
export const GEOMETRY_DOMAINS = {
  geometry: 'tessera_geometry',
  'geometry.Point': 'tessera_geometry_point',
  'geometry.LineString': 'tessera_geometry_linestring',
  'geometry.Polygon': 'tessera_geometry_polygon',
  'geometry.MultiPoint': 'tessera_geometry_multipoint',
  'geometry.MultiLineString': 'tessera_geometry_multilinestring',
  'geometry.MultiPolygon': 'tessera_geometry_multipolygon',
} as const satisfies Partial<Record<FieldType, string>>;

/** A geometry field type. */
export type GeometryType = keyof typeof GEOMETRY_DOMAINS;

/** The GeoJSON geometry types that hold coordinates (every type but GeometryCollection). */
export const GEOJSON_TYPES = ['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon'] as const;

/** The GeoJSON type that holds other geometries (RFC 7946 §3.1.8). */
export const GEOMETRY_COLLECTION = 'GeometryCollection';

/** Every GeoJSON geometry type: what a field of the generic `geometry` type and a geometry filter take. */
export const ANY_GEOJSON_TYPES: readonly string[] = [...GEOJSON_TYPES, GEOMETRY_COLLECTION];

/** True for `geometry` and `geometry.<GeoJSON type>`. */
export function isGeometryType(type: string): type is GeometryType {
  return Object.hasOwn(GEOMETRY_DOMAINS, type);
}

/** The GeoJSON types a field of `type` takes. */
export function geojsonTypesOf(type: GeometryType): readonly string[] {
  return type === 'geometry' ? ANY_GEOJSON_TYPES : [type.slice('geometry.'.length)];
}

const TYPE_BY_DOMAIN = new Map<string, GeometryType>(Object.entries(GEOMETRY_DOMAINS).map(([type, domain]) => [domain, type as GeometryType]));

/** The geometry type a column of this domain holds, or undefined. */
export function geometryTypeOfDomain(domain: string | null | undefined): GeometryType | undefined {
  return domain ? TYPE_BY_DOMAIN.get(domain) : undefined;
}
