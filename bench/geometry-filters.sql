-- Geometry filters on GeoJSON (jsonb) and on PostGIS, as server/query/compile-geometry.ts compiles them.
-- Run on a migrated Tessera database with PostGIS: psql -d <database> -f bench/geometry-filters.sql
-- (docs/performance.md "Geometry filters"). Leaves nothing behind.
\timing off
set max_parallel_workers_per_gather = 0;
create temporary table geometry_bench (id serial primary key, j jsonb, g geometry(Point, 4326));
insert into geometry_bench (j)
  select jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(random() * 360 - 180, random() * 170 - 85))
    from generate_series(1, 100000);
update geometry_bench set g = ST_GeomFromGeoJSON(j::text);
analyze geometry_bench;

\echo GeoJSON _intersects_bbox (10x10 degree box)
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where (select b[1] <= 10::float8 and b[3] >= 0::float8 and b[2] <= 10::float8 and b[4] >= 0::float8 from tessera_geojson_bbox(j) as b);
\echo PostGIS _intersects_bbox, no index
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where ST_Intersects(g, ST_Envelope(ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}'::text)));
\echo GeoJSON _intersects (triangle, one term per edge)
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where j->>'type' = 'Point' and (
   ((0::float8 > (j->'coordinates'->>1)::float8) <> (0::float8 > (j->'coordinates'->>1)::float8) and (j->'coordinates'->>0)::float8 < 12::float8)::int
 + ((0::float8 > (j->'coordinates'->>1)::float8) <> (6::float8 > (j->'coordinates'->>1)::float8) and (j->'coordinates'->>0)::float8 < -12::float8 * ((j->'coordinates'->>1)::float8 - 0::float8) / 6::float8 + 12::float8)::int
 + ((6::float8 > (j->'coordinates'->>1)::float8) <> (0::float8 > (j->'coordinates'->>1)::float8) and (j->'coordinates'->>0)::float8 < 0::float8)::int) % 2 = 1;
\echo PostGIS _intersects (triangle), no index
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where ST_Intersects(g, ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[[[0,0],[12,0],[0,6],[0,0]]]}'::text));

create index on geometry_bench using gist (g);
analyze geometry_bench;
\echo PostGIS _intersects_bbox, GiST index
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where ST_Intersects(g, ST_Envelope(ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}'::text)));
\echo PostGIS _intersects (triangle), GiST index
explain (analyze, costs off, summary on) select count(*) from geometry_bench
 where ST_Intersects(g, ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[[[0,0],[12,0],[0,6],[0,0]]]}'::text));
