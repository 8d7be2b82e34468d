import { DashboardOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { insightsMessages } from './messages.ts';

// Lazy: other screens do not download the grid or the chart library.
const DashboardsPage = lazy(() => import('./dashboards-page.tsx'));
const DashboardPage = lazy(() => import('./dashboard-page.tsx'));

/** Insights: dashboards of panels charting live data (computed by the server under the viewer's permissions). */
export const insightsModule: AdminModule = {
  name: 'insights',
  resources: [{ name: 'dashboards', list: '/insights', show: '/insights/:id', meta: { label: 'insights.menu', icon: <DashboardOutlined /> } }],
  routes: (
    <>
      <Route path="/insights" element={<DashboardsPage />} />
      <Route path="/insights/:id" element={<DashboardPage />} />
    </>
  ),
  messages: withShared(insightsMessages),
};
