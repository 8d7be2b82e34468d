import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import type { InterfaceProps } from './types.ts';
import type { Geometry } from './map/draw-geometry.ts';

// MapLibre is large: it loads only when a form shows a map.
const MapEditor = lazy(() => import('./map/map-editor.tsx'));

/** Geometry fields: a map to place points and draw lines and polygons (GeoJSON values). */
export function MapInterface(props: InterfaceProps<Geometry>) {
  return (
    <Suspense fallback={<Spin />}>
      <MapEditor {...props} />
    </Suspense>
  );
}
