import { useTranslate } from '@refinedev/core';
import { App, Typography } from 'antd';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { positionsOf, type Geometry } from '../interfaces/map/draw-geometry.ts';
import { addGeometryLayers, maplibregl, projectMapStyle } from '../interfaces/map/maplibre.ts';

/** At most this many items are drawn at once; the count says when the view holds more. */
export const MAP_LAYOUT_LIMIT = 1000;

type Item = Record<string, unknown>;

/** The view as a GeoJSON polygon, held inside the world (a zoomed-out view reaches past ±180°). */
function viewPolygon(map: MapLibreMap): Geometry {
  const bounds = map.getBounds();
  const west = Math.max(-180, bounds.getWest());
  const east = Math.min(180, bounds.getEast());
  const south = Math.max(-90, bounds.getSouth());
  const north = Math.min(90, bounds.getNorth());
  return { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
}

/**
 * The map layout of a collection with a geometry field (Directus's `map` layout): the items the caller may
 * read, under the list's search and filter, drawn on the project's basemap. Each pan or zoom asks for the
 * items in view with `_intersects_bbox` (docs/query.md "Geometry"); a click on one opens it.
 */
export default function MapLayout({ collection, primaryKey, geometryField, filter, search, onOpen }: { collection: string; primaryKey: string; geometryField: string; filter: object | null; search: string; onOpen(key: string): void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const container = useRef<HTMLDivElement>(null);
  const [counts, setCounts] = useState<{ shown: number; total: number } | null>(null);
  const query = useRef({ filter, search });
  query.current = { filter, search };
  const reload = useRef<() => void>(() => {});

  useEffect(() => {
    let cancelled = false;
    let instance: MapLibreMap | null = null;
    const read = async (area: Geometry | null) => {
      const inView = area ? { [geometryField]: { _intersects_bbox: area } } : { [geometryField]: { _nnull: true } };
      const combined = query.current.filter ? { _and: [query.current.filter, inView] } : inView;
      const body = await apiRequest<{ data: Item[]; meta?: { filter_count?: number } }>(`/items/${encodeURIComponent(collection)}`, {
        query: { fields: [primaryKey, geometryField], filter: combined, search: query.current.search || undefined, limit: MAP_LAYOUT_LIMIT, meta: 'filter_count' },
      });
      return { items: body?.data ?? [], total: Number(body?.meta?.filter_count ?? body?.data?.length ?? 0) };
    };
    const draw = async (map: MapLibreMap) => {
      try {
        const { items, total } = await read(viewPolygon(map));
        if (cancelled) return;
        const features = items.filter((item) => item[geometryField]).map((item) => ({ type: 'Feature' as const, properties: { key: String(item[primaryKey]) }, geometry: item[geometryField] as never }));
        (map.getSource('items') as GeoJSONSource | undefined)?.setData({ type: 'FeatureCollection', features });
        setCounts({ shown: features.length, total });
      } catch (failure) {
        message.error((failure as ApiHttpError).message);
      }
    };
    void projectMapStyle().then(async ({ style, hasBasemap }) => {
      if (cancelled || !container.current) return;
      const created = new maplibregl.Map({ container: container.current, style, center: [0, 0], zoom: 1, attributionControl: hasBasemap ? {} : false });
      instance = created;
      reload.current = () => void draw(created);
      created.on('load', async () => {
        created.addSource('items', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
        addGeometryLayers(created, 'items');
        for (const layer of ['items-fill', 'items-line', 'items-point']) {
          created.on('click', layer, (event) => {
            const key = event.features?.[0]?.properties?.key;
            if (key !== undefined) onOpen(String(key));
          });
          created.on('mouseenter', layer, () => (created.getCanvas().style.cursor = 'pointer'));
          created.on('mouseleave', layer, () => (created.getCanvas().style.cursor = ''));
        }
        // Start on everything there is, then follow the view.
        const all = await read(null).catch(() => ({ items: [] as Item[], total: 0 }));
        const points = all.items.flatMap((item) => positionsOf(item[geometryField] as Geometry | null));
        if (points.length > 0) created.fitBounds(points.reduce((box, point) => box.extend(point), new maplibregl.LngLatBounds(points[0], points[0])), { padding: 40, maxZoom: 12, duration: 0 });
        created.on('moveend', () => void draw(created));
        void draw(created);
      });
    });
    return () => {
      cancelled = true;
      instance?.remove();
    };
  }, [collection, primaryKey, geometryField, message, onOpen]);

  const filterKey = JSON.stringify(filter);
  useEffect(() => reload.current(), [filterKey, search]);

  return (
    <div data-testid="map-layout">
      <div ref={container} style={{ height: 480, borderRadius: 8, overflow: 'hidden' }} />
      <Typography.Text type="secondary" data-testid="map-layout-count">
        {counts ? (counts.total > counts.shown ? translate('content.map.layoutSome', { shown: counts.shown, total: counts.total }) : translate('content.map.layoutAll', { count: counts.shown })) : '\u00a0'}
      </Typography.Text>
    </div>
  );
}
