import { DatabaseOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { dataModelMessages } from './messages.ts';

const CollectionsPage = lazy(() => import('./collections-page.tsx'));
const CollectionPage = lazy(() => import('./collection-page.tsx'));

/** Data model: collections, fields and relations (administrators only). */
export const dataModelModule: AdminModule = {
  name: 'dataModel',
  resources: [
    {
      name: 'collections',
      list: '/data-model',
      show: '/data-model/:id',
      // Schema changes are for administrators: only they may create collections.
      meta: { label: 'dataModel.menu', icon: <DatabaseOutlined />, collection: 'tessera_collections', menuAction: 'create' },
    },
  ],
  routes: (
    <>
      <Route path="/data-model" element={<CollectionsPage />} />
      <Route path="/data-model/:collection" element={<CollectionPage />} />
    </>
  ),
  messages: withShared(dataModelMessages),
};
