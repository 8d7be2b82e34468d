import { AppstoreOutlined, CalendarOutlined, EnvironmentOutlined, ProjectOutlined } from '@ant-design/icons';
import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import { layouts, type LayoutProps } from '../../extensions/kinds.ts';
import type { FieldInfo } from '../schema/types.ts';
import { DATE_TYPES } from './calendar-dates.ts';
import { cardsReadFields, mayGroupBy } from './layout-fields.ts';
import { tableLayout } from './table-layout.tsx';

// Only the table is in the first load: the other layouts load when chosen (MapLibre is large; the
// calendar brings antd's Calendar), so a list that does not use them does not pay for them.
const MapLayout = lazy(() => import('./map-layout.tsx'));

/** A layout component loaded on first use, with a spinner meanwhile. */
function lazyLayout(load: () => Promise<{ default: ComponentType<LayoutProps> }>): ComponentType<LayoutProps> {
  const Component = lazy(load);
  return function LazyLayout(props: LayoutProps) {
    return (
      <Suspense fallback={<Spin />}>
        <Component {...props} />
      </Suspense>
    );
  };
}

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

// The built-in layouts enter the registry exactly as extensions' layouts do (admin/src/extensions/kinds.ts),
// under Directus's ids with its option names, so presets made in Directus mean the same here (docs/admin.md).
layouts.register(tableLayout);
layouts.register({
  id: 'cards',
  name: 'content.list.layoutCards',
  icon: <AppstoreOutlined />,
  builtIn: true,
  readFields: cardsReadFields,
  component: lazyLayout(() => import('./cards-layout.tsx')),
});
layouts.register({
  id: 'calendar',
  name: 'content.list.layoutCalendar',
  icon: <CalendarOutlined />,
  builtIn: true,
  // It places items by a date field.
  fits: (fields) => fields.some((field) => (DATE_TYPES as readonly string[]).includes(field.type)),
  component: lazyLayout(() => import('./calendar-layout.tsx')),
});
layouts.register({
  id: 'kanban',
  name: 'content.list.layoutKanban',
  icon: <ProjectOutlined />,
  builtIn: true,
  // It groups by a dropdown, status or many-to-one field (the layout checks the relation itself).
  fits: (fields) => fields.some(mayGroupBy),
  component: lazyLayout(() => import('./kanban-layout.tsx')),
});
layouts.register({
  id: 'map',
  name: 'content.list.layoutMap',
  icon: <EnvironmentOutlined />,
  builtIn: true,
  // It draws the first geometry field (docs/admin.md).
  fits: (fields) => geometryFieldOf(fields) !== null,
  component: MapLayoutEntry,
});
