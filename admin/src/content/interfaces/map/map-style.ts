import type { StyleSpecification } from 'maplibre-gl';

/** A basemap of the project settings (SPEC §9: name, type raster | tile | style, url, tileSize, attribution). */
export interface BasemapSetting {
  name?: string;
  type?: string;
  url?: string;
  tileSize?: number | null;
  attribution?: string | null;
}

/** The blank style: a plain background, no sources, so the map makes no network request at all. */
export const BLANK_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#eef2f6' } }],
};

/**
 * The map style of a basemap, Directus's way: `raster` is a tile URL template (`…/{z}/{x}/{y}.png`),
 * `tile` a TileJSON URL of raster tiles, `style` a style document URL (a Mapbox one gets `mapbox_key` as its
 * access token). No basemap (or one without a URL) is the blank style: nothing is fetched.
 */
export function basemapStyle(basemap: BasemapSetting | null | undefined, mapboxKey?: string | null): StyleSpecification | string {
  if (!basemap?.url) return BLANK_STYLE;
  if (basemap.type === 'style') {
    if (mapboxKey && /^https:\/\/api\.mapbox\.com\//.test(basemap.url) && !/[?&]access_token=/.test(basemap.url)) {
      return `${basemap.url}${basemap.url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(mapboxKey)}`;
    }
    return basemap.url;
  }
  const source =
    basemap.type === 'tile'
      ? { type: 'raster' as const, url: basemap.url, tileSize: basemap.tileSize ?? 512 }
      : { type: 'raster' as const, tiles: [basemap.url], tileSize: basemap.tileSize ?? 256, ...(basemap.attribution ? { attribution: basemap.attribution } : {}) };
  return { version: 8, sources: { basemap: source }, layers: [...BLANK_STYLE.layers, { id: 'basemap', type: 'raster', source: 'basemap' }] };
}
