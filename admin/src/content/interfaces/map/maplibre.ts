import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { apiData } from '../../../providers/http-client.ts';
import { basemapStyle, type BasemapSetting } from './map-style.ts';

// The worker ships as its own file (a Vite asset): MapLibre would otherwise look for it beside the bundle.
maplibregl.setWorkerUrl(workerUrl);

export { maplibregl };

/** The style of the project's first basemap; the blank style when there is none or settings are not readable. */
export async function projectMapStyle(): Promise<{ style: ReturnType<typeof basemapStyle>; hasBasemap: boolean }> {
  try {
    const settings = await apiData<{ basemaps?: BasemapSetting[] | null; mapbox_key?: string | null }>('/settings', { query: { fields: ['basemaps', 'mapbox_key'] } });
    const basemap = settings?.basemaps?.[0] ?? null;
    return { style: basemapStyle(basemap, settings?.mapbox_key ?? null), hasBasemap: Boolean(basemap?.url) };
  } catch {
    return { style: basemapStyle(null), hasBasemap: false };
  }
}

/** The layers that draw GeoJSON of a source: polygons filled, lines, points as circles. */
export function addGeometryLayers(map: maplibregl.Map, source: string): void {
  map.addLayer({ id: `${source}-fill`, type: 'fill', source, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#1677ff', 'fill-opacity': 0.25 } });
  map.addLayer({ id: `${source}-line`, type: 'line', source, filter: ['!=', ['geometry-type'], 'Point'], paint: { 'line-color': '#1677ff', 'line-width': 2 } });
  map.addLayer({ id: `${source}-point`, type: 'circle', source, filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-color': '#1677ff', 'circle-radius': 6, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 } });
}
