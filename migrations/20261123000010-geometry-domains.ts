import { Migration } from '@mikro-orm/migrations';
import { GEOMETRY_DOMAINS, geojsonTypesOf, type GeometryType } from '../server/schema/geometry-types.ts';

/**
 * Geometry fields without PostGIS: one jsonb domain per Directus geometry type, whose check keeps out any
 * other GeoJSON type, and tessera_geojson_bbox(), the bounding box the `_intersects_bbox` filters compare
 * (immutable, so an expression index can hold it).
 */
export class GeometryDomainsMigration extends Migration {
  override name = '20261123000010-geometry-domains';

  up(): void {
    for (const [type, domain] of Object.entries(GEOMETRY_DOMAINS)) {
      const types = geojsonTypesOf(type as GeometryType).map((name) => `'${name}'`).join(', ');
      this.addSql(`create domain "${domain}" as jsonb check (value is null or (jsonb_typeof(value) = 'object' and value->>'type' in (${types}) and jsonb_typeof(value->'coordinates') = 'array'))`);
    }
    this.addSql(`create function "tessera_geojson_bbox"(geometry jsonb) returns double precision[] language sql immutable parallel safe as $$
      select case when count(*) = 0 then null
             else array[min((p->>0)::float8), min((p->>1)::float8), max((p->>0)::float8), max((p->>1)::float8)] end
        from jsonb_path_query(geometry, 'strict $.coordinates.** ? (@.type() == "array" && @[0].type() == "number")') as p
    $$`);
  }

  override down(): void {
    this.addSql(`drop function if exists "tessera_geojson_bbox"(jsonb)`);
    for (const domain of Object.values(GEOMETRY_DOMAINS)) this.addSql(`drop domain if exists "${domain}"`);
  }
}
