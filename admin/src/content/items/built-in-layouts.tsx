import { EnvironmentOutlined } from '@ant-design/icons';
import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { layouts, type LayoutProps } from '../../extensions/kinds.ts';
import type { FieldInfo } from '../schema/types.ts';
import { tableLayout } from './table-layout.tsx';

// MapLibre is large: it loads only when the map layout is chosen.
const MapLayout = lazy(() => import('./map-layout.tsx'));

const geometryFieldOf = (fields: readonly FieldInfo[]) => fields.find((field) => field.type.startsWith('geometry'))?.field ?? null;

/** Directus's `map` layout: the items in view on the project's basemap (it reads them itself, by bounding box). */
function MapLayoutEntry({ collection, primaryKey, allFields, query, onOpen }: LayoutProps) {
  const geometryField = geometryFieldOf(allFields);
  if (!geometryField) return null;
  return (
    <Suspense fallback={<Spin />}>
      <MapLayout collection={collection} primaryKey={primaryKey} geometryField={geometryField} filter={query.filter} search={query.search} onOpen={onOpen} />
    </Suspense>
  );
}

// The built-in layouts enter the registry exactly as extensions' layouts do (admin/src/extensions/kinds.ts).
layouts.register(tableLayout);
layouts.register({
  id: 'map',
  name: 'content.list.layoutMap',
  icon: <EnvironmentOutlined />,
  builtIn: true,
  // It draws the first geometry field (docs/admin.md).
  fits: (fields) => geometryFieldOf(fields) !== null,
  component: MapLayoutEntry,
});
