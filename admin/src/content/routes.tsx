import { lazy } from 'react';
import { Route } from 'react-router';
import WelcomePage from './welcome-page.tsx';

const ItemListPage = lazy(() => import('./items/item-list-page.tsx'));
const ItemEditPage = lazy(() => import('./items/item-edit-page.tsx'));

/** The content area's routes, mounted inside the signed-in layout. */
export const contentRoutes = (
  <>
    <Route index element={<WelcomePage />} />
    <Route path="content/:collection" element={<ItemListPage />} />
    <Route path="content/:collection/+" element={<ItemEditPage />} />
    <Route path="content/:collection/:id" element={<ItemEditPage />} />
  </>
);
