import { HistoryOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { activityMessages } from './messages.ts';

const ActivityPage = lazy(() => import('./activity-page.tsx'));

/** The activity log. */
export const activityModule: AdminModule = {
  name: 'activity',
  resources: [{ name: 'activity', list: '/activity', meta: { label: 'activity.menu', icon: <HistoryOutlined /> } }],
  routes: <Route path="/activity" element={<ActivityPage />} />,
  messages: withShared(activityMessages),
};
