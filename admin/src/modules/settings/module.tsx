import { SettingOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { settingsMessages } from './messages.ts';

const SettingsPage = lazy(() => import('./settings-page.tsx'));

/** Project settings (the /settings singleton). */
export const settingsModule: AdminModule = {
  name: 'settings',
  resources: [{ name: 'settings', list: '/settings', meta: { label: 'settings.menu', icon: <SettingOutlined />, singleton: true, menuAction: 'update' } }],
  routes: <Route path="/settings" element={<SettingsPage />} />,
  messages: withShared(settingsMessages),
};
