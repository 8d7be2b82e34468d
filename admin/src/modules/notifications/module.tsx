import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { notificationsMessages } from './messages.ts';

const NotificationsPage = lazy(() => import('./notifications-page.tsx'));

/** The signed-in user's notifications: the header's bell, and the inbox page its e-mails link to. */
export const notificationsModule: AdminModule = {
  name: 'notifications',
  resources: [],
  routes: <Route path="/notifications" element={<NotificationsPage />} />,
  messages: withShared(notificationsMessages),
};
